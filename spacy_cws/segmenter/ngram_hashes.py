"""Hashed character trigrams of a model sequence (the hashing trick of spaCy's
MultiHashEmbed: no trigram vocabulary is stored).

Each unit t has three trigrams: left (t-2, t-1, t), centre (t-1, t, t+1) and
right (t, t+1, t+2), with edge markers past the sequence's ends. Each is
hashed with MurmurHash3 (thinc's ``ops.hash``) under its own seed, and two of
the four 32-bit hashes are kept, so a trigram indexes two rows of the model's
table (fewer harmful collisions, as HashEmbed).
"""
import numpy
from thinc.api import NumpyOps

from .character_view import code_points

TRIGRAM_KINDS = 3  # left, centre, right
HASHES_PER_TRIGRAM = 2
N_TRIGRAM_COLUMNS = TRIGRAM_KINDS * HASHES_PER_TRIGRAM
_START, _END = 0x110000, 0x110001  # past every code point, below 2**21
_OPS = NumpyOps()


def trigram_hashes(symbols: str) -> numpy.ndarray:
    """symbols: one model sequence's unit symbols, length n.
    RETURNS int64 (n, 6): per unit the two hashes (each in [0, 2**32)) of its
    left, centre and right trigrams, in that order."""
    n = len(symbols)
    if not n:
        return numpy.zeros((0, N_TRIGRAM_COLUMNS), dtype=numpy.int64)
    codes = numpy.concatenate([[_START, _START], code_points(symbols), [_END, _END]]).astype(numpy.uint64)
    columns = []
    for kind in range(TRIGRAM_KINDS):
        first = codes[kind : kind + n]
        keys = (first << numpy.uint64(42)) | (codes[kind + 1 : kind + 1 + n] << numpy.uint64(21)) | codes[kind + 2 : kind + 2 + n]
        hashed = _OPS.hash(keys, kind + 1)  # (n, 4) uint32
        columns.append(hashed[:, :HASHES_PER_TRIGRAM].astype(numpy.int64))
    return numpy.concatenate(columns, axis=1)
