"""Constrained Viterbi decoding of B/M/E/S tags.

Written here rather than taken from pytorch-crf (whose CRF we train with):
its ``decode`` has no transition constraints (Gan & Zhang 2020 and Qiu et
al. 2020 apply the BMES constraints at decoding only) and backtracks each
sequence in a Python loop over its characters. This is vectorised over the
batch: Python loops only over positions, never over characters of each
sequence.
"""
from typing import List, Sequence

import numpy

from .bmes_tags import B, E, M, S

# Which tag may follow which (row -> column), where a sequence may start and end.
ALLOWED_TRANSITIONS = numpy.zeros((4, 4), dtype=bool)
for _previous, _next in ((B, M), (B, E), (M, M), (M, E), (E, B), (E, S), (S, B), (S, S)):
    ALLOWED_TRANSITIONS[_previous, _next] = True
ALLOWED_STARTS = numpy.array([True, False, False, True])  # B, S
ALLOWED_ENDS = numpy.array([False, False, True, True])  # E, S
_FORBIDDEN = -1e4


def viterbi_bmes(
    emissions: Sequence[numpy.ndarray], start: numpy.ndarray, transitions: numpy.ndarray, end: numpy.ndarray
) -> List[numpy.ndarray]:
    """Best tag sequence per emission matrix under the CRF scores and the BMES constraints.

    emissions: per sequence float (n, 4), n >= 1. start, end: float (4,);
        transitions: float (4, 4), score of row tag followed by column tag.
    RETURNS per sequence int64 (n,) tags, always a valid BMES sequence.
    """
    if not emissions:
        return []
    lengths = numpy.array([len(e) for e in emissions])
    batch, length = len(emissions), int(lengths.max())
    padded = numpy.zeros((batch, length, 4), dtype=numpy.float32)
    for row, scores in enumerate(emissions):
        padded[row, : len(scores)] = scores
    trans = numpy.where(ALLOWED_TRANSITIONS, transitions, _FORBIDDEN)
    score = padded[:, 0] + numpy.where(ALLOWED_STARTS, start, _FORBIDDEN)  # (batch, 4)
    history = numpy.zeros((batch, length, 4), dtype=numpy.int64)
    for t in range(1, length):
        candidates = score[:, :, None] + trans[None]  # (batch, previous, next)
        history[:, t] = candidates.argmax(axis=1)
        advanced = candidates.max(axis=1) + padded[:, t]
        active = (t < lengths)[:, None]
        score = numpy.where(active, advanced, score)
    score = score + numpy.where(ALLOWED_ENDS, end, _FORBIDDEN)
    tags = numpy.zeros((batch, length), dtype=numpy.int64)
    rows = numpy.arange(batch)
    current = score.argmax(axis=1)
    tags[rows, lengths - 1] = current
    for t in range(length - 1, 0, -1):
        active = t < lengths  # rows whose position t is real: step back to t - 1
        previous = history[rows, t, current]
        current = numpy.where(active, previous, current)
        tags[rows[active], t - 1] = current[active]
    return [tags[row, :n] for row, n in enumerate(lengths)]
