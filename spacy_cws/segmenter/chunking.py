"""Cutting a long text's units into model sequences, losing nothing.

The GD-Transformer's attention costs O(T^2), so a text of more than
``max_length`` units is cut into sequences of at most ``max_length`` units.
Cuts go after clause-final punctuation where possible (the clause split of
Duan & Zhao's released code, ../shared/spec/seed-models.md A1), else at
``max_length``. A cut always becomes a word boundary; every unit lands in
exactly one sequence, so the text is reassembled whole.
"""
from typing import List, Sequence, Tuple

# After these a clause ends (the opening quote is in the set, the closing one is not,
# as in the released code).
CLAUSE_FINAL = frozenset("。？?！!;；“\":：")


def chunk_spans(symbols: Sequence[str], max_length: int) -> List[Tuple[int, int]]:
    """Split ``len(symbols)`` units into [start, end) spans of at most ``max_length``.

    symbols: the normalised units of one text.
    max_length: the most units a span may hold (>= 1).
    RETURNS: consecutive spans covering 0..n; [] for n == 0.
    RAISES ValueError: if max_length < 1.
    """
    if max_length < 1:
        raise ValueError(f"max_length must be at least 1, got {max_length}")
    n = len(symbols)
    spans: List[Tuple[int, int]] = []
    start = 0
    while n - start > max_length:
        limit = start + max_length
        cut = limit
        for i in range(limit, start, -1):
            if symbols[i - 1] in CLAUSE_FINAL:
                cut = i
                break
        spans.append((start, cut))
        start = cut
    if start < n:
        spans.append((start, n))
    return spans
