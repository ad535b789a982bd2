"""Greedy decoding: gap logits to word spans in the input text."""
from typing import List, Tuple

import numpy

from .character_view import CharacterView


def decode_words(view: CharacterView, spans: List[Tuple[int, int]], gap_logits: List[numpy.ndarray]) -> numpy.ndarray:
    """Word character spans from the final head's gap logits (Duan & Zhao 2020, section 3.4).

    A word starts at a unit where the boundary class wins (no tuned threshold),
    at the first unit of every sequence, and after whitespace.

    view: the text's units. spans: its [start, end) sequences.
    gap_logits: per span float array (H, end - start + 1, 2); head 0 is used.
    RETURNS: int64 (n_words, 2) of [start, end) character offsets; whitespace
        never lies inside a word.
    """
    n_units = len(view)
    if n_units == 0:
        return numpy.zeros((0, 2), dtype=numpy.int64)
    starts_word = view.spaced.copy()
    for (start, end), logits in zip(spans, gap_logits):
        final = logits[0]
        starts_word[start + 1 : end] |= final[1:-1, 1] > final[1:-1, 0]
        starts_word[start] = True
    first_units = numpy.flatnonzero(starts_word)
    last_units = numpy.append(first_units[1:] - 1, n_units - 1)
    return numpy.stack([view.starts[first_units], view.ends[last_units]], axis=1)
