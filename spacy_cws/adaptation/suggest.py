"""Which raw lines a person should segment: those the model is least sure of.

At a gap whose boundary probability is p (doc._.gap_probs), the model's
decision is wrong with probability min(p, 1 - p) when it is calibrated (the
shipped pipelines are: docs/guides/domain-adaptation.md). A line's
uncertainty is the mean of that over its gaps: the expected share of its
gaps that are wrong, so the errors a person fixes per character read, not
the length of the line, ranks it (uncertainty sampling, Lewis & Gale 1994,
"A sequential algorithm for training text classifiers", SIGIR). A line of one
character has no gap and is never suggested; a line that occurs twice is
suggested once.
"""
from dataclasses import dataclass
from typing import List, Sequence

import numpy

from ..segmenter.component import Segmenter


@dataclass
class Suggestion:
    """A raw line to segment by hand: its 0-based index among the texts, its
    words as the model segments them, and its uncertainty (line_uncertainty)."""

    index: int
    words: List[str]
    uncertainty: float


def line_uncertainty(gap_probs: numpy.ndarray) -> float:
    """The mean over the gaps of min(p, 1 - p): 0 for certain (or no) gaps, at most 0.5."""
    if not len(gap_probs):
        return 0.0
    probs = numpy.asarray(gap_probs, dtype=numpy.float64)
    return float(numpy.minimum(probs, 1.0 - probs).mean())


def suggest_lines(segmenter: Segmenter, texts: Sequence[str], n: int, progress: bool = False) -> List[Suggestion]:
    """The ``n`` texts (at most; fewer when fewer are uncertain) of highest
    uncertainty, most uncertain first (ties: in text order), each
    pre-segmented by ``segmenter``'s default criterion.

    RAISES ValueError: if n < 1.
    """
    from .adapt import label_texts

    if n < 1:
        raise ValueError(f"Suggest at least one line, got {n}")
    spans, probs = label_texts(segmenter, texts, progress, desc="score")
    seen = set()
    scored = []
    for index, (text, line_probs) in enumerate(zip(texts, probs)):
        uncertainty = line_uncertainty(line_probs)
        if uncertainty > 0 and text not in seen:
            seen.add(text)
            scored.append((-uncertainty, index))
    scored.sort()
    return [
        Suggestion(index, [texts[index][start:end] for start, end in spans[index]], -negated)
        for negated, index in scored[:n]
    ]
