"""Words after user-dictionary and unbroken spans (span_constraints.py)."""
import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_cws.segmenter.span_constraints import apply_span_constraints


def _spans(draw, n, max_spans):
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=2 * max_spans))))
    return numpy.asarray([(a, b) for a, b in zip(cuts[::2], cuts[1::2]) if b > a], dtype=numpy.int64).reshape(-1, 2)


@st.composite
def segmented_texts(draw):
    text = draw(st.lists(st.sampled_from(["中", "国", " ", "a", "\u3000"]), min_size=1, max_size=40).map("".join))
    n = len(text)
    # The model's words: disjoint, sorted, never starting or ending on whitespace.
    words = [(a, b) for a, b in _spans(draw, n, 20).tolist() if not text[a].isspace() and not text[b - 1].isspace()]
    # Unbroken spans (grapheme clusters, URLs, numbers) hold no whitespace.
    unbroken = [(a, b) for a, b in _spans(draw, n, 3).tolist() if not any(c.isspace() for c in text[a:b])]
    unbroken = numpy.asarray(unbroken, dtype=numpy.int64).reshape(-1, 2)
    return text, numpy.asarray(words, dtype=numpy.int64).reshape(-1, 2), _spans(draw, n, 3), unbroken


def _character_words(text, words):
    """Per character the index of its word, -1 outside words."""
    owner = numpy.full(len(text), -1)
    for i, (a, b) in enumerate(words.tolist()):
        owner[a:b] = i
    return owner


@settings(max_examples=400, deadline=None)
@given(segmented_texts())
def test_constraints_keep_the_words_cover_and_hold_every_span(case):
    text, words, whole, unbroken = case
    result = apply_span_constraints(text, words, whole, unbroken)
    assert (numpy.diff(result, axis=1) > 0).all() and (result[1:, 0] >= result[:-1, 1]).all()
    owner = _character_words(text, result)
    covered = _character_words(text, words) >= 0
    for a, b in whole.tolist():
        covered[a:b] = True
    # Every non-space character the words or whole spans covered is in a word.
    non_space = numpy.asarray([not c.isspace() for c in text])
    assert (owner[covered & non_space] >= 0).all()
    # No unbroken span is cut: its non-space characters are in one word.
    for a, b in unbroken.tolist():
        inside = owner[a:b][non_space[a:b]]
        assert len(set(inside.tolist())) <= 1


def test_without_spans_the_words_are_unchanged():
    words = numpy.asarray([[0, 2], [2, 3], [4, 6]], dtype=numpy.int64)
    empty = numpy.zeros((0, 2), dtype=numpy.int64)
    assert apply_span_constraints("中国人 中国", words, empty, empty) is words


def test_a_whole_span_becomes_one_word_and_a_cluster_joins_its_neighbour():
    text = "中国人民银行"
    words = numpy.asarray([[0, 2], [2, 4], [4, 6]], dtype=numpy.int64)
    empty = numpy.zeros((0, 2), dtype=numpy.int64)
    whole = numpy.asarray([[2, 6]], dtype=numpy.int64)
    assert apply_span_constraints(text, words, whole, empty).tolist() == [[0, 2], [2, 6]]
    unbroken = numpy.asarray([[1, 3]], dtype=numpy.int64)
    assert apply_span_constraints(text, words, empty, unbroken).tolist() == [[0, 4], [4, 6]]


def test_a_batch_gets_each_texts_own_constrained_words(shared_data):
    """constrained_words over a batch (the common case found in one pass)
    equals apply_span_constraints text by text: CTB6 test lines split into
    their gold words (numbers kept whole) or into characters (every run cut),
    and lines with URLs, e-mail addresses, emoji and whitespace."""
    from spacy_cws.features.character_view import Normaliser
    from spacy_cws.segmenter.span_constraints import constrained_words
    from spacy_cws.segmenter.unbroken_spans import DEFAULT_PATTERNS, PatternSpans

    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if line.strip()]
    texts, words, wholes = [], [], []
    for index, line in enumerate(lines[:300]):
        gold = line.split()
        texts.append("".join(gold))
        ends = numpy.cumsum([len(word) for word in gold]) if index % 3 else numpy.arange(1, len(texts[-1]) + 1)
        words.append(numpy.stack([ends - numpy.diff(ends, prepend=0), ends], axis=1).astype(numpy.int64))
        wholes.append(numpy.asarray([[0, 2]] if index % 7 == 0 else [], dtype=numpy.int64).reshape(-1, 2))
    for text in ["访问 https://spacy.io/usage 了解", "写信给 someone@example.com。", "👨‍👩‍👧好", "2024 年 3.5%"]:
        texts.append(text)
        starts = [i for i, c in enumerate(text) if not c.isspace()]
        words.append(numpy.asarray([[i, i + 1] for i in starts], dtype=numpy.int64))
        wholes.append(numpy.zeros((0, 2), dtype=numpy.int64))
    views = Normaliser().views(texts)
    patterns = PatternSpans(DEFAULT_PATTERNS)
    result = constrained_words(texts, views, words, wholes, patterns)
    changed = 0
    for text, view, text_words, whole, got in zip(texts, views, words, wholes, result):
        unbroken = numpy.concatenate([patterns(text), view.runs, view.clusters])
        expected = apply_span_constraints(text, text_words, whole, unbroken)
        assert got.tolist() == expected.tolist(), text
        changed += got.tolist() != text_words.tolist()
    assert 20 < changed < len(texts) - 100  # the batch held texts the constraints change and texts they keep


def test_a_batch_of_no_texts_or_of_empty_texts_gets_no_words(zh_cws_gd_sm_nlp):
    segmenter = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter")
    assert segmenter.segment_texts([]) == []
    assert segmenter.segment_with_probs([]) == ([], [])
    sentence = "新华社北京二月十一日电"
    words = [words.tolist() for words in segmenter.segment_texts(["", " ", "\n", sentence])]
    assert words == [[], [], [], segmenter.segment_texts([sentence])[0].tolist()]
    assert ["".join(sentence[a:b] for a, b in words[3])] == [sentence]
