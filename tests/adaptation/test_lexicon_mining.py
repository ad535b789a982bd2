"""Domain words mined from raw text (adaptation/lexicon_mining.py): what the shipped model makes of the DL
novel, which it never saw (conftest.py), and string statistics on ZX raw text."""
import math

import pytest

from spacy_cws.adaptation.lexicon_mining import (
    MiningSettings,
    NgramStatistics,
    mine_lexicon,
    model_word_statistics,
    write_lexicon,
)
from spacy_cws.lexicon.sources import read_user_dictionary


def _brute_accessor_variety(texts, word):
    left, right = set(), set()
    edges_left = edges_right = 0
    for text in texts:
        start = text.find(word)
        while start >= 0:
            if start == 0:
                edges_left += 1
            else:
                left.add(text[start - 1])
            end = start + len(word)
            if end == len(text):
                edges_right += 1
            else:
                right.add(text[end])
            start = text.find(word, start + 1)
    return min(len(left) + edges_left, len(right) + edges_right)


def test_accessor_variety_and_pmi_by_hand():
    texts = ["张小凡看着碧瑶", "碧瑶看着张小凡", "小凡与碧瑶", "张小凡，碧瑶"]
    stats = NgramStatistics(texts, max_length=4)
    # Punctuation ends a run of Han characters: an edge, a neighbour of its own.
    runs = ["张小凡看着碧瑶", "碧瑶看着张小凡", "小凡与碧瑶", "张小凡", "碧瑶"]
    for word in ("碧瑶", "小凡", "张小凡", "看着"):
        assert stats.accessor_variety(word) == _brute_accessor_variety(runs, word), word
    n = stats.n_characters
    expected = min(
        math.log((3 / n) / ((3 / n) * (4 / n))),  # 张 | 小凡
        math.log((3 / n) / ((3 / n) * (4 / n))),  # 张小 | 凡
    )
    assert stats.pmi("张小凡") == pytest.approx(expected)


@pytest.fixture(scope="module")
def dl_raw(dl_gold):
    return ["".join(words) for words in dl_gold]


@pytest.fixture(scope="module")
def dl_model_words(zh_cws_gd_sm_nlp, dl_raw):
    """The shipped model's labelling of the DL text, at the default settings' confidence and lengths."""
    settings = MiningSettings()
    words, probs = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter").segment_with_probs(dl_raw)
    return model_word_statistics(dl_raw, words, probs, settings.confidence, settings.max_length)


@pytest.fixture(scope="module")
def mined_dl(zh_cws_gd_sm_nlp, dl_raw, dl_model_words):
    symbols = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter").symbols
    return mine_lexicon(dl_raw, dl_model_words, MiningSettings(), symbols)


def test_mined_words_are_mostly_gold_words(mined_dl, dl_gold):
    words = [entry.word for entry in mined_dl]
    assert len(words) > 100
    gold_words = {word for sentence in dl_gold for word in sentence}
    precision = sum(word in gold_words for word in words) / len(words)
    assert precision > 0.8, precision
    # The novel's names, which the source model is never sure of, are found.
    assert {"戴沐白", "赵无极", "叶知秋"} <= set(words)


def test_words_the_model_doubts_rank_before_words_it_knows(mined_dl):
    rank = {entry.word: index for index, entry in enumerate(mined_dl)}
    # 戴沐白 is the most frequent name and the model is sure of it nowhere;
    # 自己 and 他们 are about as frequent and it is sure of them.
    assert rank["戴沐白"] == 0
    by_count = sorted(mined_dl, key=lambda entry: -entry.count)
    for word in ("自己", "他们"):
        assert [entry.word for entry in by_count].index(word) < 20 and rank[word] > 50, word
    unsure = [entry.unsure for entry in mined_dl]
    assert unsure == sorted(unsure, reverse=True)
    assert all(0 <= entry.unsure <= entry.count for entry in mined_dl)
    assert mined_dl[0].unsure == mined_dl[0].count


def test_function_characters_do_not_edge_a_word(mined_dl):
    for entry in mined_dl:
        if entry.sources == ["statistics"]:
            assert entry.word[0] not in "的了着" and entry.word[-1] not in "的了着", entry.word


def test_a_name_with_a_function_character_is_kept_an_affixed_word_is_not(
    zh_cws_gd_sm_nlp, dl_raw, dl_model_words, mined_dl
):
    # The name 小舞 starts with 小, which the model makes a word alone on
    # this text. 的时候 is 的 + 时候, a word the model knows.
    words = {entry.word for entry in mined_dl}
    assert "小舞" in words and "的时候" not in words
    segmenter = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter")
    settings = MiningSettings(function_affixes=False)
    strict = {entry.word for entry in mine_lexicon(dl_raw, dl_model_words, settings, segmenter.symbols)}
    assert "小舞" not in strict and strict < words
    # Such a candidate also needs boundary freedom: no string has a branching entropy of 10 here.
    picky = MiningSettings(function_prefix_entropy=10.0)
    assert "小舞" not in {entry.word for entry in mine_lexicon(dl_raw, dl_model_words, picky, segmenter.symbols)}


def test_phrases_the_model_is_sure_to_cut_are_left_out(zh_cws_gd_sm_nlp, dl_raw, dl_model_words, mined_dl):
    # 点了点头 and 摇了摇头 stick together and have free edges, but the model is sure of a
    # boundary inside them; it doubts the novel's names, which stay.
    words = {entry.word for entry in mined_dl}
    assert {"戴沐白", "小舞"} <= words and not {"点了点头", "摇了摇头"} & words
    symbols = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter").symbols
    untested = mine_lexicon(dl_raw, dl_model_words, MiningSettings(confident_cut_share=None), symbols)
    every = {entry.word for entry in untested}
    assert {"点了点头", "摇了摇头"} <= every and words < every
    # Only candidates of the statistics alone are tested: the model's own confident words all stay.
    model_words_kept = {entry.word for entry in mined_dl if "model" in entry.sources}
    assert model_words_kept == {entry.word for entry in untested if "model" in entry.sources}


def test_branching_entropy_by_hand():
    texts = ["张小凡看着碧瑶", "碧瑶看着张小凡", "小凡与碧瑶", "张小凡，碧瑶"]
    stats = NgramStatistics(texts, max_length=4)
    # 碧瑶: left neighbours 着, (edge), 与, (edge): H = log 4; right: (edge) x2, 看, (edge): log 4.
    assert stats.branching_entropy("碧瑶") == pytest.approx(math.log(4))
    # 小凡: left 张 x3 and one edge; right 看, (edge), 与, (edge): the left side's entropy.
    assert stats.branching_entropy("小凡") == pytest.approx(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))
    # 张小 is always followed by 凡.
    assert stats.branching_entropy("张小") == pytest.approx(0.0)
    assert stats.branching_entropy("没有") == 0.0


def test_branching_entropy_tells_a_word_from_its_fragment(zx_raw):
    stats = NgramStatistics(zx_raw, max_length=4)
    for word, fragment in (("张小凡", "张小"), ("田不易", "田不"), ("青云门", "云门")):
        assert stats.counts[word] >= 10
        assert stats.branching_entropy(word) > 1.5 > 0.5 > stats.branching_entropy(fragment), (word, fragment)
    # A threshold keeps the names and keeps out every candidate below it.
    mined = mine_lexicon(zx_raw, settings=MiningSettings(min_branching_entropy=1.5))
    assert {"张小凡", "田不易", "青云门"} <= {entry.word for entry in mined}
    assert all(entry.branching_entropy >= 1.5 for entry in mined)


def test_written_lexicon_reads_as_a_user_dictionary(mined_dl, tmp_path):
    path = tmp_path / "domain_words.txt"
    write_lexicon(mined_dl, path)
    lexicon = read_user_dictionary(path)
    assert list(lexicon) == [entry.word for entry in mined_dl]
    assert lexicon[mined_dl[0].word].frequency == mined_dl[0].count


def test_settings_out_of_range():
    with pytest.raises(ValueError, match="min_length <= max_length"):
        MiningSettings(min_length=5, max_length=4).check()
    with pytest.raises(ValueError, match="confidence is a share"):
        MiningSettings(confidence=1.5).check()
    with pytest.raises(ValueError, match="confident_cut_share is a share"):
        MiningSettings(confident_cut_share=-0.1).check()
