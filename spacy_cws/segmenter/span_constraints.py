"""Applying kept-whole spans to predicted words, without losing a character."""
import numpy

from .character_view import _is_space, code_points


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
    if not len(whole) and not len(unbroken):
        return words
    n = len(text)
    # The model's words, without a Python object per word: covered characters
    # from a running count of word starts minus word ends.
    cover = numpy.bincount(words[:, 0], minlength=n + 1) - numpy.bincount(words[:, 1], minlength=n + 1)
    in_word = numpy.cumsum(cover[: n + 1]) > 0
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
    next_begin = numpy.append(first[1:], n + 1)
    next_leave = leaves[numpy.searchsorted(leaves, first, side="right")]
    ends = numpy.minimum(next_begin, next_leave)
    return numpy.stack([first, ends], axis=1).astype(numpy.int64)
