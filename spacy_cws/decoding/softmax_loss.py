"""Softmax cross-entropy over per-position class scores (gaps or B/M/E/S tags)."""
from typing import List, Tuple

from thinc.api import Ops
from thinc.types import Floats3d, Ints1d


def softmax_cross_entropy(ops: Ops, scores: List[Floats3d], gold: List[Ints1d]) -> Tuple[float, List[Floats3d]]:
    """Cross-entropy per head, each a mean over all positions of the batch,
    summed over heads (Duan & Zhao 2020 weigh the final and early gap heads 1:1).
    Computed with ``ops`` where the scores are (the model's device).

    scores: per sequence float (H, L, C); gold: per sequence int (L,) of class ids.
    RETURNS (loss, d_scores of the same shapes as scores, on the same device).
    """
    xp = ops.xp
    n_positions = sum(len(labels) for labels in gold)
    log_likelihoods = []
    d_scores = []
    for score, labels in zip(scores, gold):
        probs = ops.softmax(score, axis=-1)
        rows = xp.arange(len(labels))
        labels = ops.asarray(labels, dtype="int64")
        log_likelihoods.append(xp.log(probs[:, rows, labels] + 1e-12).sum())
        probs[:, rows, labels] -= 1.0
        d_scores.append(probs / n_positions)
    loss = -float(xp.stack(log_likelihoods).astype("float64").sum()) / n_positions if scores else 0.0
    return loss, d_scores
