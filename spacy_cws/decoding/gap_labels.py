"""Gold gap labels from a reference Doc's word boundaries.

A gap lies before each unit of a model sequence and after its last unit: for a
sequence of n units, gaps 0..n. Gap k (0 < k < n) is a boundary when a
reference word starts at unit k's first character; the outer gaps 0 and n are
always boundaries (BOS|first and last|EOS, which count in the loss as in the
released code).
"""
from typing import Iterable, List, Tuple

import numpy

from ..features.character_view import CharacterView

BOUNDARY = 1
NO_BOUNDARY = 0


def unit_starts_word(view: CharacterView, word_starts: Iterable[int]) -> numpy.ndarray:
    """bool (n,): whether a reference word starts at each unit.

    word_starts: character offsets where reference words start (``token.idx``).
    """
    starts = numpy.fromiter(word_starts, dtype=numpy.int64)
    return numpy.isin(view.starts, starts)


def gap_labels(starts_word: numpy.ndarray, spans: List[Tuple[int, int]]) -> List[numpy.ndarray]:
    """Gap labels for each model sequence.

    starts_word: bool (n,) from :func:`unit_starts_word`.
    spans: the [start, end) unit spans of the text's sequences.
    RETURNS: per span an int array (end - start + 1,) of BOUNDARY / NO_BOUNDARY.
    """
    labels = []
    for start, end in spans:
        gaps = numpy.empty(end - start + 1, dtype=numpy.int64)
        gaps[1:-1] = starts_word[start + 1 : end]
        gaps[0] = gaps[-1] = BOUNDARY
        labels.append(gaps)
    return labels
