"""Windows over long texts and segment ids from word lengths (numpy helpers).

An encoder or the attention sees at most ``max_length`` characters at once: a
longer text is cut into consecutive windows, preferably at given cut points
(word boundaries), and the windows' outputs are concatenated again, so nothing
is truncated.
"""
from functools import reduce
from typing import List, Sequence, Tuple

import numpy


def window_spans(length: int, max_length: int, cuts: Sequence[int] = ()) -> List[Tuple[int, int]]:
    """Consecutive [start, end) windows of at most ``max_length`` covering
    range(length); each window ends at the last cut point that fits, or is
    cut hard at max_length where none does. [] for length 0."""
    if max_length < 1:
        raise ValueError(f"max_length must be >= 1, got {max_length}")
    cuts = numpy.unique(numpy.asarray(cuts, dtype=numpy.int64))
    spans = []
    start = 0
    while start < length:
        end = min(start + max_length, length)
        if end < length:
            fitting = cuts[(cuts > start) & (cuts <= end)]
            if len(fitting):
                end = int(fitting[-1])
        spans.append((start, end))
        start = end
    return spans


def segment_ids(lengths: Sequence[int]) -> numpy.ndarray:
    """int64 (sum(lengths),): the word index of every character."""
    lengths = numpy.asarray(lengths, dtype=numpy.int64)
    return numpy.repeat(numpy.arange(len(lengths), dtype=numpy.int64), lengths)


def word_ends(lengths: Sequence[int]) -> numpy.ndarray:
    """int64 (n_words,): the end offset of every word."""
    return numpy.cumsum(numpy.asarray(lengths, dtype=numpy.int64))


def common_boundaries(segmentations: Sequence[Sequence[int]]) -> numpy.ndarray:
    """Word ends shared by all segmentations (the safest places to cut)."""
    if not segmentations:
        return numpy.zeros((0,), dtype=numpy.int64)
    return reduce(numpy.intersect1d, [word_ends(lengths) for lengths in segmentations])
