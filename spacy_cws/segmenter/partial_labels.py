"""Partial gap labels: some gaps labelled, the others masked out of the loss.

The GD model scores every gap on its own, so a partially annotated sentence
(Liu et al. 2014, "Domain adaptation for CRF-based Chinese word segmentation
using free annotations", EMNLP) is simply a sentence some of whose gaps count
in the loss. Self-training labels the gaps the model is sure of (adaptation/
self_training.py); an annotator could label the uncertain ones.
"""
from typing import List, Sequence, Tuple

import numpy
from thinc.api import Ops
from thinc.types import Floats3d

from ..decoding.gap_labels import BOUNDARY, NO_BOUNDARY
from ..features.character_view import CharacterView


def unit_gap_labels(
    view: CharacterView, spans: Sequence[Tuple[int, int]], char_targets: numpy.ndarray
) -> List[Tuple[numpy.ndarray, numpy.ndarray]]:
    """Per model sequence its gap targets and which of them count.

    char_targets: float32 (max(len(text) - 1, 0),) per gap between
        characters: the target probability of a boundary (1 or 0 for a
        label; between them a soft target, e.g. a teacher's probability), or
        -1 for unknown (masked).
    RETURNS per span (targets float32 (n + 1,), counted bool (n + 1,)): the
        outer gaps (sequence edges) are boundaries and count, as in
        decoding/gap_labels.gap_labels; a gap after whitespace is a boundary and counts.
    """
    char_targets = numpy.asarray(char_targets, dtype=numpy.float32)
    out = []
    for start, end in spans:
        n = end - start
        targets = numpy.full(n + 1, float(BOUNDARY), dtype=numpy.float32)
        counted = numpy.ones(n + 1, dtype=bool)
        units = numpy.arange(start + 1, end)
        inner = units[view.ends[units - 1] == view.starts[units]]
        known = char_targets[view.starts[inner] - 1]
        targets[inner - start] = numpy.where(known >= 0, known, 0.0)
        counted[inner - start] = known >= 0
        out.append((targets, counted))
    return out


def masked_softmax_cross_entropy(
    ops: Ops, scores: List[Floats3d], targets: List[numpy.ndarray], counted: List[numpy.ndarray]
) -> Tuple[float, List[Floats3d]]:
    """decoding/softmax_loss.softmax_cross_entropy with soft targets, over the counted
    gaps only: per head a mean over the batch's counted gaps, summed over heads.

    scores: per sequence float (H, n + 1, 2); targets: per sequence float
    (n + 1,), the target probability of a boundary (NO_BOUNDARY = class 0,
    BOUNDARY = class 1); counted: per sequence bool (n + 1,).
    RETURNS (loss, d_scores of the same shapes; 0 at masked gaps).
    """
    xp = ops.xp
    n_counted = max(int(sum(int(mask.sum()) for mask in counted)), 1)
    total = 0.0
    d_scores = []
    for score, seq_targets, mask in zip(scores, targets, counted):
        probs = ops.softmax(score, axis=-1)
        target = xp.zeros(probs.shape[1:], dtype=probs.dtype)
        q = ops.asarray(seq_targets.astype("float32"))
        target[:, BOUNDARY] = q
        target[:, NO_BOUNDARY] = 1.0 - q
        weight = ops.asarray(mask.astype("float32"))
        total += float((xp.log(probs + 1e-12) * target[None] * weight[None, :, None]).sum())
        d_scores.append((probs - target[None]) * weight[None, :, None] / n_counted)
    return -total / n_counted, d_scores
