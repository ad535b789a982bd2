"""Windows over long texts and segment ids from word lengths.

An encoder or the attention sees at most ``max_length`` characters at once: a
longer text is cut into consecutive windows, preferably at given cut points
(word boundaries), and the windows' outputs are concatenated again, so nothing
is truncated. A window is (doc index, start, end) (``Window``):
``split_windows`` cuts per-doc arrays into windows, ``join_windows`` joins
per-window arrays back into per-doc arrays.
"""
from functools import reduce
from typing import List, Sequence, Tuple

import numpy
from thinc.api import Ops
from thinc.types import ArrayXd, Floats2d

Window = Tuple[int, int, int]  # (doc index, start, end)


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


def split_windows(windows: Sequence[Window], arrays: Sequence[ArrayXd]) -> List[ArrayXd]:
    """Per window (i, start, end) the rows arrays[i][start:end] (views)."""
    return [arrays[i][start:end] for i, start, end in windows]


def join_windows(
    ops: Ops, windows: Sequence[Window], pieces: Sequence[Floats2d], n_docs: int, width: int
) -> List[Floats2d]:
    """Per doc the concatenation, in window order, of its windows' arrays.

    windows: each doc's consecutive windows (window_spans), in doc order.
    pieces: per window float (end - start, width).
    RETURNS per doc float (sum of its windows' lengths, width); (0, width)
        for a doc without windows.
    """
    by_doc: List[List[Floats2d]] = [[] for _ in range(n_docs)]
    for (i, _, _), piece in zip(windows, pieces):
        by_doc[i].append(piece)
    return [ops.xp.concatenate(p, axis=0) if p else ops.alloc2f(0, width) for p in by_doc]


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
