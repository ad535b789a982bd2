"""Word slots (input of the word-POS attention of Gan & Zhang 2020) against a brute force over
CTB6 training sentences and jieba's dictionary, and the coarse POS classes on
the tags of real lexicons."""
import collections
from itertools import islice

import numpy
import pytest

from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.features.character_view import Normaliser
from spacy_cws.lexicon import LexiconMatcher, jieba_lexicon
from spacy_cws.lexicon.match_features import EVERY_FOLD, text_fold
from spacy_cws.lexicon.pos_tags import COARSE_TAGS, UNKNOWN_TAG, coarse_tag
from spacy_cws.lexicon.word_slots import (
    POSITIONS,
    SLOT_TAG_BITS,
    SLOT_TAG_MASK,
    fill_word_slots,
    replacement_probability,
)

N_FOLDS = 4


@pytest.fixture(scope="module")
def jieba():
    return jieba_lexicon()


@pytest.fixture(scope="module")
def ctb6_sentences(shared_data):
    return [s.words for s in islice(read_segmented(get_corpus("ctb6").path(shared_data, "train")), 300)]


@pytest.fixture(scope="module")
def matcher(jieba, ctb6_sentences):
    training = {}
    for words in ctb6_sentences:
        for word in words:
            training[word] = training.get(word, 0) | 1 << text_fold("".join(words), N_FOLDS)
    jieba_words = dict.fromkeys(jieba, EVERY_FOLD)
    tags = {word: entry.pos for word, entry in jieba.items()}
    counts = collections.Counter(word for words in ctb6_sentences for word in words)
    normaliser = Normaliser(fold_width=False, collapse_runs=False)
    return LexiconMatcher([training, jieba_words], normaliser, tags, counts, embedded_channel=0), training, counts


def brute_force_slots(text, training, jieba, n_slots, fold):
    """Every substring in a lexicon, per character longest first then leftmost."""
    per_unit = [[] for _ in text]
    for start in range(len(text)):
        for end in range(start + 1, len(text) + 1):
            word = text[start:end]
            in_training = word in training and training[word] & ~(1 << fold)
            if not (in_training or word in jieba):
                continue
            tag = coarse_tag(jieba[word].pos) if word in jieba else UNKNOWN_TAG
            for unit in range(start, end):
                per_unit[unit].append((-(end - start), start, tag, unit - start, bool(in_training), word))
    slots = []
    for entries in per_unit:
        row = []
        for negative_length, start, tag, inside, embedded, word in sorted(entries)[:n_slots]:
            length = -negative_length
            position = "S" if length == 1 else "B" if inside == 0 else "E" if inside == length - 1 else "M"
            row.append((1 + tag * len(POSITIONS) + POSITIONS.index(position), embedded))
        slots.append(row + [(0, False)] * (n_slots - len(row)))
    return slots


def test_slots_equal_a_brute_force_with_jackknifing(matcher, jieba, ctb6_sentences):
    matcher, training, _ = matcher
    texts = ["".join(words) for words in ctb6_sentences[:40]]
    folds = [text_fold(text, N_FOLDS) for text in texts]
    spaced = [numpy.zeros(len(text), dtype=bool) for text in texts]
    found = matcher.batch_word_slots(texts, spaced, 6, folds)
    hidden = 0
    for text, fold, slots in zip(texts, folds, found):
        expected = brute_force_slots(text, training, jieba, 6, fold)
        assert (slots & SLOT_TAG_MASK).tolist() == [[tag for tag, _ in row] for row in expected]
        assert ((slots >> SLOT_TAG_BITS) > 0).tolist() == [[embedded for _, embedded in row] for row in expected]
        hidden += sum(1 for word in set(ctb6_sentences[texts.index(text)]) if training[word] == 1 << fold)
    assert hidden > 0  # some words are in their own fold only, so the jackknife was exercised


def test_inference_slots_see_every_training_word_and_the_same_hash(matcher, ctb6_sentences):
    matcher, _, _ = matcher
    text = "".join(ctb6_sentences[0])
    slots = matcher.batch_word_slots([text], [numpy.zeros(len(text), dtype=bool)], 4)[0]
    word = ctb6_sentences[0][0]
    assert (slots[0] >> SLOT_TAG_BITS > 0).any()  # the first word is a training word
    # A word's hash is the same wherever it occurs.
    again = matcher.batch_word_slots([word + "，" + word], [numpy.zeros(2 * len(word) + 1, dtype=bool)], 4)[0]
    assert set((again[0] >> SLOT_TAG_BITS).tolist()) == set((again[len(word) + 1] >> SLOT_TAG_BITS).tolist())


def test_no_word_crosses_whitespace(matcher):
    matcher, _, _ = matcher
    spaced = numpy.zeros(4, dtype=bool)
    spaced[2] = True  # "中国 人民": no "国人"
    slots = matcher.batch_word_slots(["中国人民"], [spaced], 8)[0]
    positions = [[POSITIONS[(tag - 1) % len(POSITIONS)] for tag in row if tag] for row in (slots & SLOT_TAG_MASK)]
    # 国 ends 中国 or stands alone: no word runs on from it into 人 (jieba has 国人).
    assert positions[1] and set(positions[1]) <= {"E", "S"}
    assert positions[2] and set(positions[2]) <= {"B", "S"}


def test_replacement_follows_seed_003_eq_14(matcher, ctb6_sentences):
    matcher, training, counts = matcher
    probabilities = replacement_probability(numpy.asarray([1, 4, 100, 0]), 4.0)
    assert probabilities.tolist() == [1.0, 1.0, pytest.approx(0.2), 1.0]
    assert replacement_probability(numpy.asarray([1, 4]), 0.0).tolist() == [0.0, 0.0]
    texts = ["".join(words) for words in ctb6_sentences[:200]]
    spaced = [numpy.zeros(len(text), dtype=bool) for text in texts]
    numpy.random.seed(0)
    kept = [matcher.batch_word_slots(texts, spaced, 8, replacement_threshold=t, training=True) for t in (0.0, 5.0, 1e9)]
    embedded = [sum(int((s >> SLOT_TAG_BITS > 0).sum()) for s in slots) for slots in kept]
    assert embedded[0] > embedded[1] > embedded[2] == 0
    # The POS ids never change with replacement.
    assert all((a & SLOT_TAG_MASK == b & SLOT_TAG_MASK).all() for a, b in zip(kept[0], kept[2]))
    # At inference only the words replaced always (count <= t) are their POS.
    inference = matcher.batch_word_slots(texts, spaced, 8, replacement_threshold=5.0)
    assert inference == [] or all((s >> SLOT_TAG_BITS > 0).sum() <= (k >> SLOT_TAG_BITS > 0).sum()
                                  for s, k in zip(inference, kept[0]))
    rare = next(word for words in ctb6_sentences[:200] for word in words if counts[word] == 1 and len(word) > 1)
    text = next(t for t in texts if rare in t)
    at = text.index(rare)
    row = matcher.batch_word_slots([text], [numpy.zeros(len(text), dtype=bool)], 8, replacement_threshold=5.0)[0]
    full = matcher.batch_word_slots([text], [numpy.zeros(len(text), dtype=bool)], 8)[0]
    assert (full[at] >> SLOT_TAG_BITS > 0).any() and not (row[at] >> SLOT_TAG_BITS > 0).any() or len(rare) < 2


def test_fill_keeps_the_longest_words_of_a_unit():
    # Matches over 5 units: [0, 5), [1, 3), [2, 3), [0, 2); two slots a unit.
    slots = fill_word_slots(5, numpy.array([0, 1, 2, 0]), numpy.array([5, 2, 1, 2]), numpy.array([1, 2, 3, 4]),
                            numpy.array([7, 0, 0, 0]), 2)
    tag = slots & SLOT_TAG_MASK
    assert (tag[:, 0] == [1 + 4 + 0, 1 + 4 + 1, 1 + 4 + 1, 1 + 4 + 1, 1 + 4 + 2]).all()  # the 5-unit word at B/M/M/M/E
    assert (slots[:, 0] >> SLOT_TAG_BITS == 7).all()
    assert tag[0, 1] == 1 + 16 + 0 and tag[1, 1] == 1 + 16 + 2 and tag[2, 1] == 1 + 8 + 2 and tag[4, 1] == 0
    assert fill_word_slots(3, *(numpy.zeros(0, dtype=numpy.int64),) * 4, 2).tolist() == [[0, 0]] * 3


def test_every_tag_of_the_real_lexicons_has_a_class(jieba, shared_data):
    jieba_tags = collections.Counter(entry.pos for _, entry in jieba.items())
    unmapped = {tag: n for tag, n in jieba_tags.items() if coarse_tag(tag) == UNKNOWN_TAG}
    assert not unmapped, unmapped
    zx = get_corpus("zx").path(shared_data, "train")
    ctb_tags = collections.Counter(
        pair.rsplit("_", 1)[1] for line in open(zx, encoding="utf-8") for pair in line.split()
    )
    assert not {tag for tag in ctb_tags if coarse_tag(tag) == UNKNOWN_TAG}
    assert COARSE_TAGS[coarse_tag("NR")] == COARSE_TAGS[coarse_tag("nr")] == "PROPN"
    assert COARSE_TAGS[coarse_tag("VV")] == COARSE_TAGS[coarse_tag("v")] == "VERB"
    assert coarse_tag(None) == coarse_tag("") == coarse_tag("QQ") == UNKNOWN_TAG
