"""Word spans in the input texts from the units where words start."""
from typing import List, Sequence, Tuple

import numpy

from ..features.character_view import CharacterView, laid_end_to_end


def decode_words(
    views: Sequence[CharacterView],
    spans: Sequence[Sequence[Tuple[int, int]]],
    span_starts: Sequence[Sequence[numpy.ndarray]],
) -> List[numpy.ndarray]:
    """Word character spans of texts from each sequence's predicted word starts.

    A word starts where the model says so (label_schemes: a gap boundary or a
    B/S tag), at the first unit of every sequence, after whitespace, and at
    both edges of a run that is a word of its own (``view.alone``).

    views: per text its units. spans: per text its [start, end) sequences,
        consecutive and covering all its units (chunking.chunk_spans).
    span_starts: per text, per sequence bool (end - start,), whether each
        unit starts a word.
    RETURNS: per text int64 (n_words, 2) of [start, end) character offsets in
        that text; whitespace never lies inside a word.

    All texts are decoded in one numpy pass over their units laid end to end
    (not text by text, where the numpy calls' overhead would dominate): a
    text's first unit starts a sequence, so no word runs into the next text.
    """
    counts = numpy.fromiter(map(len, views), dtype=numpy.int64, count=len(views))
    n_units = int(counts.sum())
    if not n_units:
        return [numpy.zeros((0, 2), dtype=numpy.int64) for _ in views]
    starts_word = laid_end_to_end(views, "spaced") | laid_end_to_end(views, "alone")
    starts_word |= numpy.concatenate([starts for text_starts in span_starts for starts in text_starts])
    lengths = numpy.fromiter((end - start for text_spans in spans for start, end in text_spans), dtype=numpy.int64)
    starts_word[numpy.cumsum(lengths) - lengths] = True
    first_units = numpy.flatnonzero(starts_word)
    del starts_word
    words = numpy.empty((len(first_units), 2), dtype=numpy.int64)
    words[:, 0] = laid_end_to_end(views, "starts")[first_units]
    # A word's last unit is the one before the next word's first.
    words[:, 1] = laid_end_to_end(views, "ends")[numpy.append(first_units[1:], n_units) - 1]
    return numpy.split(words, numpy.searchsorted(first_units, numpy.cumsum(counts)[:-1]))
