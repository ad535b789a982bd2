"""Several model sequences laid end to end in one flat array.

The features of a whole batch are computed with one numpy pass each instead
of one per sequence: sequences are concatenated, and a unit's neighbour
``k`` places away counts only inside its own sequence (past its edge it is
an edge marker, as at the ends of a single sequence).
"""
from typing import Sequence

import numpy


class SequenceLayout:
    """Positions of consecutive sequences of ``lengths`` units in a flat array.

    lengths: per sequence its number of units (each ≥ 1), in order.
    """

    def __init__(self, lengths: Sequence[int]):
        self.lengths = numpy.asarray(lengths, dtype=numpy.int64).reshape(-1)
        self.n_units = int(self.lengths.sum())
        ends = numpy.cumsum(self.lengths)
        starts = ends - self.lengths
        # Per unit: how many units of its sequence lie before and after it.
        self.before = numpy.arange(self.n_units, dtype=numpy.int64) - numpy.repeat(starts, self.lengths)
        self.after = numpy.repeat(ends, self.lengths) - 1 - numpy.arange(self.n_units, dtype=numpy.int64)

    def shifted(self, values: numpy.ndarray, offset: int, edge: int) -> numpy.ndarray:
        """Per unit t the value of unit t + ``offset`` (≠ 0) of the same
        sequence, or ``edge`` where that falls outside it.

        values: (n_units,). RETURNS (n_units,) of values' dtype.
        """
        inside = self.before >= -offset if offset < 0 else self.after >= offset
        out = numpy.full_like(values, edge)
        out[inside] = values[numpy.flatnonzero(inside) + offset]
        return out

    def split(self, flat: numpy.ndarray) -> list:
        """``flat`` (n_units, ...) cut into one array (view) per sequence."""
        return numpy.split(flat, numpy.cumsum(self.lengths)[:-1]) if len(self.lengths) else []
