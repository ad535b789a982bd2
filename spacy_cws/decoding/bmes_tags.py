"""B/M/E/S character tags from word boundaries, and back.

B begins a word of two or more units, M is inside one, E ends one, S is a
single-unit word. As with gaps (gap_labels.py), each model sequence starts and
ends a word: a sequence cut inside a word tags its pieces as words.
"""
from typing import List, Tuple

import numpy

B, M, E, S = 0, 1, 2, 3
TAG_NAMES = ("B", "M", "E", "S")


def bmes_tags(starts_word: numpy.ndarray, spans: List[Tuple[int, int]]) -> List[numpy.ndarray]:
    """Gold tags for each model sequence.

    starts_word: bool (n,), whether a reference word starts at each unit
        (gap_labels.unit_starts_word).
    spans: the [start, end) unit spans of the text's sequences.
    RETURNS per span an int64 array (end - start,) of B/M/E/S.
    """
    tags = []
    for start, end in spans:
        begins = starts_word[start:end].copy()
        begins[0] = True
        ends = numpy.append(begins[1:], True)
        tags.append(numpy.where(begins, numpy.where(ends, S, B), numpy.where(ends, E, M)).astype(numpy.int64))
    return tags


def starts_from_tags(tags: numpy.ndarray) -> numpy.ndarray:
    """bool (n,): whether each unit starts a word (tag B or S) given int (n,) tags."""
    return (tags == B) | (tags == S)
