"""Inference batches that each hold sequences of one padded length.

spaCy's ``minibatch_by_padded_size`` sorts the sequences by length and fills
each batch up to a padded size, so a batch mixes lengths, and many of the
positions the network runs are padding. Here a batch holds only sequences of
one ``padded_length`` (the length with its edges rounded up to the backend's
multiple), so padding is only that rounding. No library batches by exact
shape; spaCy's batcher stays the one training uses. What it saves:
docs/experiments/inference.md (the ONNX Runtime packages).
"""
from typing import Iterator, List, Sequence

import numpy

from .padded_inputs import padded_length


def batches_by_padded_length(sequences: Sequence, batch_units: int, length_multiple: int) -> Iterator[List[int]]:
    """Indices into ``sequences``, one list per batch: sequences of one
    padded length L (``padded_length`` at ``length_multiple``, the
    backend's), at most ``max(1, batch_units // L)`` of them (so at most
    ``batch_units`` padded units, or one sequence longer than that), shortest
    lengths first, each length's sequences in their given order.

    sequences: anything with len(), e.g. int64 (n, C) feature arrays.
    batch_units: most padded units in a batch (``batch_units`` of the
        component's config); RAISES ValueError if below 1.
    """
    if batch_units < 1:
        raise ValueError(f"batch_units must be at least 1, got {batch_units}")
    lengths = numpy.fromiter(
        (padded_length(seq, length_multiple) for seq in sequences), dtype=numpy.int64, count=len(sequences)
    )
    order = numpy.argsort(lengths, kind="stable")
    sorted_lengths = lengths[order]
    bounds = numpy.flatnonzero(sorted_lengths[1:] != sorted_lengths[:-1]) + 1
    for group in numpy.split(order, bounds) if len(order) else ():
        per_batch = max(1, batch_units // int(lengths[group[0]]))
        for first in range(0, len(group), per_batch):
            yield group[first : first + per_batch].tolist()
