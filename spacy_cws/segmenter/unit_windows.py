"""Windows of model sequences, so a long text is featurized and scored a
window at a time.

A text's features (int64, 15 a unit) and scores exist for one window of at
most ``size`` units at a time, never for the whole text (the
text's own views and spans still do). Windows are
made of whole model sequences (features/chunking.py), so the model sees exactly the
sequences it would see with no windows; short texts share a window, so a
batch of sentences is still scored as one batch.
"""
from typing import Iterator, List, Sequence, Tuple

# (text index, first sequence, end sequence) of one text's part of a window.
WindowPart = Tuple[int, int, int]


def unit_windows(sequence_lengths: Sequence[Sequence[int]], size: int) -> Iterator[List[WindowPart]]:
    """Consecutive windows of whole sequences, each of at most ``size`` units
    unless one sequence alone is longer.

    sequence_lengths: per text the unit count of each of its sequences, in order.
    size: the most units a window holds (>= 1).
    YIELDS: per window, its parts in text order: (text, first, end) for the
        sequences first..end-1 of that text. Every sequence of every text is
        in exactly one window; texts with no sequence are in none.
    RAISES ValueError: if size < 1.
    """
    if size < 1:
        raise ValueError(f"a window must hold at least 1 unit, got {size}")
    window: List[WindowPart] = []
    units = 0
    for text, lengths in enumerate(sequence_lengths):
        first = 0
        for index, length in enumerate(lengths):
            if units and units + length > size:
                if index > first:
                    window.append((text, first, index))
                yield window
                window, units, first = [], 0, index
            units += length
        if len(lengths) > first:
            window.append((text, first, len(lengths)))
    if window:
        yield window
