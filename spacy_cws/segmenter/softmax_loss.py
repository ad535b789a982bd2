"""Softmax cross-entropy over per-position class scores (gaps or B/M/E/S tags)."""
from typing import List, Tuple

import numpy
from thinc.api import Ops
from thinc.types import Floats3d, Ints1d


def softmax_cross_entropy(ops: Ops, scores: List[Floats3d], gold: List[Ints1d]) -> Tuple[float, List[Floats3d]]:
    """Cross-entropy per head, each a mean over all positions of the batch,
    summed over heads (Duan & Zhao 2020 weigh the final and early gap heads 1:1).

    scores: per sequence float (H, L, C); gold: per sequence int (L,) of class ids.
    RETURNS (loss, d_scores of the same shapes as scores).
    """
    n_positions = sum(len(labels) for labels in gold)
    loss = 0.0
    d_scores = []
    for score, labels in zip(scores, gold):
        score = ops.to_numpy(score)
        shifted = score - score.max(axis=-1, keepdims=True)
        probs = numpy.exp(shifted)
        probs /= probs.sum(axis=-1, keepdims=True)
        rows = numpy.arange(len(labels))
        loss -= numpy.log(probs[:, rows, labels] + 1e-12).sum() / n_positions
        probs[:, rows, labels] -= 1.0
        d_scores.append(ops.asarray(probs / n_positions, dtype="float32"))
    return float(loss), d_scores
