"""Applying kept-whole spans to predicted words, without losing a character."""
import numpy

from ..features.character_view import CharacterView, _is_space, code_points
from .unbroken_spans import PatternSpans, grapheme_clusters


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
        intact = (holder >= 0) & (words[holder, 1] >= unbroken[:, 1]) if len(words) else numpy.zeros(len(unbroken), bool)
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
    text: str, view: CharacterView, words: numpy.ndarray, whole: numpy.ndarray, patterns: PatternSpans
) -> numpy.ndarray:
    """The model's ``words`` of ``text`` with the ``whole`` spans (force-mode
    user words) one word each, and the spans of ``patterns``, the view's runs
    and grapheme clusters never cut inside (apply_span_constraints)."""
    unbroken = numpy.concatenate([patterns(text), view.runs, grapheme_clusters(text)])
    return apply_span_constraints(text, words, whole, unbroken)
