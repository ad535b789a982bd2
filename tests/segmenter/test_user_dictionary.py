"""User dictionaries and never-cut spans, with the shipped zh_cws_gd on generated and real sentences."""
import pickle
import random

import pytest
import spacy

from spacy_cws.corpora.formats import read_segmented
from spacy_cws.features.character_view import _WIDTH_FOLDING
from spacy_cws.segmenter.user_dictionary import UserDictionary

LATIN_WORDS = ["Color OS", "SK-II", "5w-30", "iPhone 15 Pro", "ces", "OS", "Wi-Fi 6"]
# Latin context words that hold a dictionary word inside: never cut there.
LATIN_CONTEXT = ["license", "macOS", "process", "OSes", "iOS"]
MIXED_WORDS = ["第16季", "3D打印", "G20峰会", "5G网络"]


@pytest.fixture(scope="module")
def zx_words(shared_data):
    words = {w for s in read_segmented(shared_data / "zx" / "train.zhuxian.wordpos", "wordpos") for w in s.words}
    return sorted(w for w in words if 2 <= len(w) <= 5 and all("\u4e00" <= c <= "\u9fff" for c in w))


def occurrences(text, word):
    start = text.find(word)
    while start >= 0:
        yield start, start + len(word)
        start = text.find(word, start + 1)


def latin(character):
    return character.isascii() and character.isalnum()


def at_latin_edges(text, start, end):
    """Whether [start, end) may match under the Latin word-boundary rule."""
    return not (latin(text[start]) and start and latin(text[start - 1])) and not (
        latin(text[end - 1]) and end < len(text) and latin(text[end])
    )


def generated_sentences(ctb6_words, dictionary, n, rng):
    """Sentences of CTB6 words with dictionary words inserted between them, and
    the [start, end) spans of the inserted words. A sentence where an inserted
    word overlaps another dictionary occurrence is drawn again, so every
    inserted word is unambiguous under the longest-then-leftmost rule."""
    made = []
    while len(made) < n:
        words = list(rng.choice(ctb6_words))
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randint(0, len(words)), rng.choice(dictionary))
        if rng.random() < 0.5:
            words.insert(rng.randint(0, len(words)), " " + rng.choice(LATIN_CONTEXT) + " ")
        text = "".join(words)
        spans = sorted({span for word in dictionary for span in occurrences(text, word)})
        inserted, position = [], 0
        for word in words:
            if word in dictionary:
                inserted.append((position, position + len(word)))
            position += len(word)
        folded = text.translate(_WIDTH_FOLDING)
        others = [span for span in spans if span not in inserted and at_latin_edges(folded, *span)]
        if any(s < oe and os < e for s, e in inserted for os, oe in others):
            continue
        if not all(at_latin_edges(folded, *span) for span in inserted):
            continue  # e.g. "Wi-Fi 6" before "９月": the rule rightly refuses it
        made.append((text, inserted))
    return made


def test_force_mode_keeps_every_dictionary_word_whole(shared_data, zx_words):
    rng = random.Random(13)
    ctb6 = [s.words for s in read_segmented(shared_data / "ctb6" / "dev.seg", "sighan")]
    dictionary = rng.sample(zx_words, 300) + LATIN_WORDS + MIXED_WORDS
    nlp = spacy.load("zh_cws_gd")
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.add_words(dictionary)
    assert segmenter.words == dictionary
    sentences = generated_sentences(ctb6, dictionary, 1000, rng)
    n_words = whole = 0
    for (text, inserted), doc in zip(sentences, nlp.pipe([text for text, _ in sentences])):
        assert doc.text == text
        tokens = {(t.idx, t.idx + len(t)) for t in doc}
        starts = {t.idx for t in doc}
        for start, end in inserted:
            n_words += 1
            whole += (start, end) in tokens
            assert not any(start < s < end for s in starts), (text, text[start:end])
        for context in LATIN_CONTEXT:
            for start, end in occurrences(text, " " + context + " "):
                assert (start + 1, end - 1) in tokens, (text, context)
    assert n_words > 1500
    assert whole == n_words  # 100%


def test_without_the_dictionary_the_model_cuts_some_of_those_words(zh_cws_gd_nlp, zx_words):
    # The control: the force test above is not passing because the model already agrees
    # (zh_cws_gd 0.3.3 cuts 28 of these 300 ZX words; at least 5% must be cut).
    rng = random.Random(13)
    words = rng.sample(zx_words, 300)
    docs = list(zh_cws_gd_nlp.pipe(words))
    assert sum(len(doc) > 1 for doc in docs) >= 15


def test_grapheme_clusters_urls_and_emails_are_never_cut(zh_cws_gd_nlp):
    spans = [
        "👨\u200d👩\u200d👧\u200d👦",
        "e\u0301",
        "🇨🇳",
        "https://example.com/search?q=cws&a=1&b=2",
        "www.example.org/a-b_c",
        "foo.bar+baz@example.co.uk",
        "1,299.50",
        "-3.5%",
    ]
    for span in spans:
        for text in (f"请看{span}这个", f"{span}", f"我们{span}。"):
            doc = zh_cws_gd_nlp(text)
            assert doc.text == text
            start = text.index(span)
            assert not any(start < t.idx < start + len(span) for t in doc), (text, [t.text for t in doc])


def test_user_dictionary_rules():
    dictionary = UserDictionary(["中国", "中国人民", "人民银行", "ces", "Color OS"])
    text = "中国人民银行license ces Color OS"
    assert [text[s:e] for s, e in dictionary.matches(text)] == ["中国人民", "ces", "Color OS"]
    dictionary.remove(["中国人民"])
    assert [text[s:e] for s, e in dictionary.matches(text)] == ["中国", "人民银行", "ces", "Color OS"]
    wide = "Ｃｏｌｏｒ ＯＳ，Color OS"  # full-width forms match their half-width entry
    assert [wide[s:e] for s, e in dictionary.matches(wide)] == ["Ｃｏｌｏｒ ＯＳ", "Color OS"]
    with pytest.raises(ValueError, match="non-space"):
        dictionary.add([" "])


@pytest.mark.parametrize("words", [[123], ["云计算", 123], ["云计算", None, b"bytes"]])
def test_a_word_that_is_not_a_str_is_named(words):
    """Issue 39, item 7: add_words([123]) raised AttributeError ('int' object
    has no attribute 'strip') deep inside; a TypeError names the item."""
    dictionary = UserDictionary(["中国"])
    bad = [word for word in words if not isinstance(word, str)]
    with pytest.raises(TypeError, match=f"must be a str, got {bad[0]!r}"):
        dictionary.add(words)
    assert dictionary.words == ["中国"]


def test_user_dictionary_is_saved_loaded_and_pickled(tmp_path):
    nlp = spacy.load("zh_cws_gd")
    nlp.get_pipe("gd_segmenter").add_words(["花莲举行", "F-16中队", "Color OS"])
    text = "去年十二月在花莲举行的空军第五个F-16中队用Color OS"
    expected = [t.text for t in nlp(text)]
    assert "花莲举行" in expected and "F-16中队" in expected and "Color OS" in expected
    nlp.to_disk(tmp_path / "p")
    for copy in (spacy.load(tmp_path / "p"), pickle.loads(pickle.dumps(nlp))):
        assert copy.get_pipe("gd_segmenter").words == ["花莲举行", "F-16中队", "Color OS"]
        assert [t.text for t in copy(text)] == expected
    from_bytes = spacy.util.load_model_from_config(nlp.config).from_bytes(nlp.to_bytes())
    assert [t.text for t in from_bytes(text)] == expected
