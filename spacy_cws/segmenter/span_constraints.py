"""Applying kept-whole spans to predicted words, without losing a character."""
from typing import List, Sequence, Tuple

import numpy

from ..features.character_view import CharacterView, _is_space, code_points
from .unbroken_spans import PatternSpans


def apply_span_constraints(
    text: str, words: numpy.ndarray, whole: numpy.ndarray, unbroken: numpy.ndarray
) -> numpy.ndarray:
    """Words after forcing spans whole and forbidding cuts inside others.

    text: the input text. words: int64 (n, 2), the model's [start, end) words
        (whitespace outside them).
    whole: int64 (k, 2) spans that become exactly one word each (user
        dictionary words, URLs, ...), applied in order, a later span winning;
        whitespace inside such a span stays in the word.
    unbroken: int64 (m, 2) spans never cut inside (grapheme clusters); applied
        last, so they win over everything.
    RETURNS: int64 (n', 2), sorted words covering the same non-space characters
        as ``words`` (plus the whitespace inside ``whole`` spans).
    """
    if not len(whole):
        # An unbroken span inside one word changes nothing, and most are
        # (numbers the model keeps whole): only the others are applied.
        holder = numpy.searchsorted(words[:, 0], unbroken[:, 0], side="right") - 1
        intact = (
            (holder >= 0) & (words[holder, 1] >= unbroken[:, 1]) if len(words) else numpy.zeros(len(unbroken), bool)
        )
        if intact.all():
            return words
        unbroken = unbroken[~intact]
    n = len(text)
    # The model's words, without a Python object per word: covered characters
    # from a running count of word starts minus word ends (int8: the words do
    # not overlap, so the count is 0 or 1; 1 byte a character, not 8).
    cover = numpy.zeros(n + 1, dtype=numpy.int8)
    cover[words[:, 0]] += 1
    cover[words[:, 1]] -= 1
    in_word = numpy.cumsum(cover, dtype=numpy.int8) > 0
    del cover
    starts = numpy.zeros(n + 1, dtype=bool)
    starts[words[:, 0]] = True
    for start, end in whole.tolist():
        in_word[start:end] = True
        starts[start] = True
        starts[start + 1 : end] = False
        starts[end] = in_word[end]
    for start, end in unbroken.tolist():
        starts[start + 1 : end] = False
        in_word[start:end] |= ~_is_space(code_points(text[start:end]))
    in_word[n] = False
    previous = numpy.concatenate([[False], in_word[:-1]])
    begins = in_word & (starts | ~previous)
    first = numpy.flatnonzero(begins[:n])
    # A word ends before the next word's start or where the text leaves words.
    leaves = numpy.flatnonzero(in_word[:n] & ~in_word[1:]) + 1
    constrained = numpy.empty((len(first), 2), dtype=numpy.int64)
    constrained[:, 0] = first
    # Each word's end, written in place (a 1,000,000-character text has 600,000 words).
    ends = constrained[:, 1]
    ends[:-1] = first[1:]
    ends[-1:] = n + 1
    numpy.minimum(ends, leaves[numpy.searchsorted(leaves, first, side="right")], out=ends)
    return constrained


def constrained_words(
    texts: Sequence[str],
    views: Sequence[CharacterView],
    words: Sequence[numpy.ndarray],
    wholes: Sequence[numpy.ndarray],
    patterns: PatternSpans,
) -> List[numpy.ndarray]:
    """Per text, the model's ``words`` of it with its ``wholes`` spans
    (force-mode user words) one word each, and the spans of ``patterns``, the
    view's runs and its grapheme clusters never cut inside (apply_span_constraints).

    words, wholes: per text int64 (n, 2) and (k, 2) [start, end) offsets.
    RETURNS per text int64 (n', 2): its words (the same array where nothing
    changes them).

    Most texts keep the model's words: no span to keep whole, and every
    unbroken span inside one word (numbers the model keeps whole). They are
    found for the whole batch in one numpy pass over the texts laid end to
    end (not text by text: docs/experiments/inference.md).
    """
    unbroken = [(patterns(text), view.runs, view.clusters) for text, view in zip(texts, views)]
    changed = _with_cut_spans(texts, words, unbroken)
    changed |= numpy.fromiter(map(len, wholes), dtype=numpy.int64, count=len(wholes)) > 0
    return [
        apply_span_constraints(text, text_words, whole, numpy.concatenate(spans)) if change else text_words
        for text, text_words, whole, spans, change in zip(texts, words, wholes, unbroken, changed.tolist())
    ]


def _with_cut_spans(
    texts: Sequence[str], words: Sequence[numpy.ndarray], unbroken: Sequence[Tuple[numpy.ndarray, ...]]
) -> numpy.ndarray:
    """bool (len(texts),): whether a text's words cut inside one of its
    unbroken spans, i.e. the word holding the span's first character does not
    hold its last (texts laid end to end, a character apart)."""
    shifts = numpy.cumsum([0] + [len(text) + 1 for text in texts[:-1]], dtype=numpy.int64)
    word_counts = numpy.fromiter(map(len, words), dtype=numpy.int64, count=len(words))
    parts = [part for text_spans in unbroken for part in text_spans]
    span_counts = numpy.fromiter((sum(map(len, spans)) for spans in unbroken), dtype=numpy.int64, count=len(unbroken))
    changed = numpy.zeros(len(texts), dtype=bool)
    if not span_counts.any():
        return changed
    spans = numpy.concatenate(parts) + numpy.repeat(shifts, span_counts)[:, None]
    if not word_counts.any():
        changed[span_counts > 0] = True
        return changed
    # One text (a long line) is its own layout: no copy of its words.
    laid = words[0] if len(words) == 1 else numpy.concatenate(words) + numpy.repeat(shifts, word_counts)[:, None]
    holder = numpy.searchsorted(laid[:, 0], spans[:, 0], side="right") - 1
    intact = (holder >= 0) & (laid[holder, 1] >= spans[:, 1])
    changed[numpy.repeat(numpy.arange(len(texts)), span_counts)[~intact]] = True
    return changed
