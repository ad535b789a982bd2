"""Cutting a long text's units into model sequences, losing nothing.

The GD-Transformer's attention costs O(T^2), so a text of more than
``max_length`` units is cut into sequences of at most ``max_length`` units.
Cuts go after clause-final punctuation where possible (the clause split of
Duan & Zhao's released code, ../shared/spec/seed-models.md A1), else at
``max_length``. A cut always becomes a word boundary; every unit lands in
exactly one sequence, so the text is reassembled whole.
"""
from typing import List, Tuple

import numpy

from .character_view import code_points

# After these a clause ends (the opening quote is in the set, the closing one is not,
# as in the released code).
CLAUSE_FINAL = frozenset("。？?！!;；“\":：")
_CLAUSE_FINAL_CODES = code_points("".join(sorted(CLAUSE_FINAL)))


def chunk_spans(symbols: str, max_length: int) -> List[Tuple[int, int]]:
    """Split ``len(symbols)`` units into [start, end) spans of at most ``max_length``.

    symbols: the normalised units of one text, one character each (a
        CharacterView's symbols).
    max_length: the most units a span may hold (>= 1).
    RETURNS: consecutive spans covering 0..n; [] for n == 0. Loops once per
        span (clause ends are found with numpy), never per unit.
    RAISES ValueError: if max_length < 1.
    """
    if max_length < 1:
        raise ValueError(f"max_length must be at least 1, got {max_length}")
    n = len(symbols)
    if n <= max_length:
        return [(0, n)] if n else []
    # Cut positions allowed by punctuation: just after each clause-final unit.
    # code_points reads the str's buffer: no str object per unit ("".join would
    # make one per unit, all at once for a long text).
    clause_cuts = numpy.flatnonzero(numpy.isin(code_points(symbols), _CLAUSE_FINAL_CODES)) + 1
    spans: List[Tuple[int, int]] = []
    start = 0
    while n - start > max_length:
        limit = start + max_length
        # The last clause cut in (start, limit], else limit.
        index = numpy.searchsorted(clause_cuts, limit, side="right") - 1
        cut = int(clause_cuts[index]) if index >= 0 and clause_cuts[index] > start else limit
        spans.append((start, cut))
        start = cut
    spans.append((start, n))
    return spans
