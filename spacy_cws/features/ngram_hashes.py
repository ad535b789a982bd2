"""Hashed character trigrams of a model sequence (the hashing trick of spaCy's
MultiHashEmbed: no trigram vocabulary is stored).

Each unit t has three trigrams: left (t-2, t-1, t), centre (t-1, t, t+1) and
right (t, t+1, t+2), with edge markers past the sequence's ends. Each is
hashed with MurmurHash3 (thinc's ``ops.hash``) under its own seed, and two of
the four 32-bit hashes are kept, so a trigram indexes two rows of the model's
table (fewer harmful collisions, as HashEmbed).
"""
from typing import Optional

import numpy
from thinc.api import NumpyOps

from .character_view import code_points
from .sequence_layout import SequenceLayout

TRIGRAM_KINDS = 3  # left, centre, right
HASHES_PER_TRIGRAM = 2
N_TRIGRAM_COLUMNS = TRIGRAM_KINDS * HASHES_PER_TRIGRAM
_START, _END = 0x110000, 0x110001  # past every code point, below 2**21
_OPS = NumpyOps()


def trigram_hashes(symbols: str, layout: SequenceLayout, out: Optional[numpy.ndarray] = None) -> numpy.ndarray:
    """symbols: the unit symbols of consecutive model sequences (``layout``).
    out: an int64 (n, 6) array to write into (e.g. columns of a feature
    matrix), or None for a new one.
    RETURNS int64 (n, 6): per unit the two hashes (each in [0, 2**32)) of its
    left, centre and right trigrams, in that order, with edge markers past
    the ends of its own sequence."""
    if out is None:
        out = numpy.empty((len(symbols), N_TRIGRAM_COLUMNS), dtype=numpy.int64)
    codes = code_points(symbols).astype(numpy.uint64)
    before1, before2 = layout.shifted(codes, -1, _START), layout.shifted(codes, -2, _START)
    after1, after2 = layout.shifted(codes, 1, _END), layout.shifted(codes, 2, _END)
    trigrams = ((before2, before1, codes), (before1, codes, after1), (codes, after1, after2))
    for kind, (first, second, third) in enumerate(trigrams):
        keys = (first << numpy.uint64(42)) | (second << numpy.uint64(21)) | third
        hashed = _OPS.hash(keys, kind + 1)  # (n, 4) uint32
        out[:, kind * HASHES_PER_TRIGRAM : (kind + 1) * HASHES_PER_TRIGRAM] = hashed[:, :HASHES_PER_TRIGRAM]
    return out
