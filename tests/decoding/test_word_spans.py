"""Decoding the words of a batch of texts from the units where words start."""
import numpy
from hypothesis import given
from hypothesis import strategies as st

from spacy_cws.decoding.word_spans import decode_words
from spacy_cws.features.character_view import Normaliser
from spacy_cws.features.chunking import chunk_spans

TEXT_PARTS = st.sampled_from(
    ["上海浦东", "开发", " ", "\u3000", "\n", "ABC", "can't", "3.5%", "Москва", "한국어", "e\u0301", "。", "·"]
)
NORMALISER = Normaliser()


def _reference_words(view, spans, span_starts):
    """The definition, unit by unit: a word starts at a sequence's first unit,
    after whitespace, at a word-of-its-own run's edge, or where the model says."""
    starts = [False] * len(view)
    for (start, end), predicted in zip(spans, span_starts):
        for unit in range(start, end):
            starts[unit] = unit == start or bool(view.spaced[unit] or view.alone[unit] or predicted[unit - start])
    firsts = [unit for unit, first in enumerate(starts) if first]
    lasts = [first - 1 for first in firsts[1:]] + [len(view) - 1]
    return [(int(view.starts[first]), int(view.ends[last])) for first, last in zip(firsts, lasts)]


@given(
    st.lists(st.lists(TEXT_PARTS, max_size=6).map("".join), max_size=6),
    st.integers(min_value=1, max_value=6),
    st.randoms(use_true_random=False),
)
def test_batch_gives_each_text_its_words(texts, max_length, rng):
    """Texts decoded together get the words of the definition, each text's
    offsets its own, whatever its neighbours (empty and whitespace-only texts,
    several sequences per text, runs at a text's edges)."""
    views = [NORMALISER(text) for text in texts]
    spans = [chunk_spans(view.symbols, max_length) for view in views]
    span_starts = [
        [numpy.array([rng.random() < 0.4 for _ in range(end - start)], dtype=bool) for start, end in s] for s in spans
    ]
    decoded = decode_words(views, spans, span_starts)
    assert len(decoded) == len(texts)
    for words, text, view, text_spans, starts in zip(decoded, texts, views, spans, span_starts):
        assert words.dtype == numpy.int64 and words.shape[1:] == (2,)
        assert [tuple(word) for word in words.tolist()] == _reference_words(view, text_spans, starts), text
        assert "".join(text[start:end] for start, end in words.tolist()) == "".join(text.split())
