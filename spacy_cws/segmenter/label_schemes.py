"""What a segmentation model predicts, and how that becomes words: gaps or B/M/E/S tags.

The component is the same for every architecture; the model says in
``attrs["labels"]`` which scheme it predicts ("gaps": GD-Transformer,
Duan & Zhao 2020; "bmes": the BMES taggers of seeds 003/004). A scheme gives
the gold labels of a text's sequences, the loss, and the units where words
start.
"""
from typing import List, Tuple

import numpy
from thinc.api import Model
from thinc.types import Floats3d

from ..models.crf_loss import crf_loss, crf_of, crf_transitions
from .bmes_tags import bmes_tags, starts_from_tags
from .gap_labels import gap_labels
from .softmax_loss import softmax_cross_entropy
from .viterbi import viterbi_bmes


class GapScheme:
    """Gap labels (boundary / no boundary before each unit and after the last),
    softmax cross-entropy on every head, greedy decoding from head 0
    (Duan & Zhao 2020, section 3.4: no tuned threshold)."""

    gold = staticmethod(gap_labels)

    def loss(self, model: Model, scores: List[Floats3d], gold: List[numpy.ndarray]) -> Tuple[float, List[Floats3d]]:
        return softmax_cross_entropy(model.ops, scores, gold)

    def word_starts(self, model: Model, scores: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """scores: per sequence (H, n + 1, 2). RETURNS per sequence bool (n,):
        the gap before each unit is a boundary (unit 0's is the sequence edge)."""
        return [score[0, :-1, 1] > score[0, :-1, 0] for score in scores]


class BMESScheme:
    """B/M/E/S tags per unit: CRF negative log-likelihood and constrained
    Viterbi with the CRF decoder, else per-unit softmax and argmax."""

    gold = staticmethod(bmes_tags)

    def loss(self, model: Model, scores: List[Floats3d], gold: List[numpy.ndarray]) -> Tuple[float, List[Floats3d]]:
        if crf_of(model) is not None:
            return crf_loss(model, scores, gold)
        return softmax_cross_entropy(model.ops, scores, gold)

    def word_starts(self, model: Model, scores: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """scores: per sequence (1, n, 4). RETURNS per sequence bool (n,): units tagged B or S."""
        if crf_of(model) is not None:
            tags = viterbi_bmes([score[0] for score in scores], *crf_transitions(model))
        else:
            tags = [score[0].argmax(axis=-1) for score in scores]
        return [starts_from_tags(seq_tags) for seq_tags in tags]


SCHEMES = {"gaps": GapScheme(), "bmes": BMESScheme()}


def label_scheme(model: Model):
    """The scheme of a segmentation model (a GD model saved before schemes existed has none: gaps).

    RAISES ValueError: for a model with an unknown ``attrs["labels"]``.
    """
    name = model.attrs.get("labels", "gaps")
    if name not in SCHEMES:
        raise ValueError(f"Model '{model.name}' predicts '{name}' labels; the segmenter knows {sorted(SCHEMES)}")
    return SCHEMES[name]
