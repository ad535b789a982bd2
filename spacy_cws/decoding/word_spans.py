"""Word spans in the input text from the units where words start."""
from typing import List, Tuple

import numpy

from ..features.character_view import CharacterView


def decode_words(view: CharacterView, spans: List[Tuple[int, int]], span_starts: List[numpy.ndarray]) -> numpy.ndarray:
    """Word character spans from each sequence's predicted word starts.

    A word starts where the model says so (label_schemes: a gap boundary or a
    B/S tag), at the first unit of every sequence, after whitespace, and at
    both edges of a run that is a word of its own (``view.alone``).

    view: the text's units. spans: its [start, end) sequences.
    span_starts: per span bool (end - start,), whether each unit starts a word.
    RETURNS: int64 (n_words, 2) of [start, end) character offsets; whitespace
        never lies inside a word.
    """
    n_units = len(view)
    if n_units == 0:
        return numpy.zeros((0, 2), dtype=numpy.int64)
    starts_word = view.spaced | view.alone
    for (start, end), starts in zip(spans, span_starts):
        starts_word[start:end] |= starts
        starts_word[start] = True
    first_units = numpy.flatnonzero(starts_word)
    del starts_word
    words = numpy.empty((len(first_units), 2), dtype=numpy.int64)
    words[:, 0] = view.starts[first_units]
    # A word's last unit is the one before the next word's first.
    words[:-1, 1] = view.ends[first_units[1:] - 1]
    words[-1, 1] = view.ends[n_units - 1]
    return words
