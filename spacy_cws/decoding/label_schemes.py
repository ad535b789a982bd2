"""What a segmentation model predicts, and how that becomes words: gaps or B/M/E/S tags.

The component is the same for every architecture; the model says in
``attrs["labels"]`` which scheme it predicts ("gaps": GD-Transformer,
Duan & Zhao 2020; "bmes": the BMES taggers of Gan & Zhang 2020 and Qiu et al. 2020). A scheme gives
the gold labels of a text's sequences, the loss, and the decoder of the units
where words start (word_start_decoders.py).
"""
from typing import List, Tuple

import numpy
from thinc.api import Model
from thinc.types import Floats3d

from ..nets.crf_loss import crf_loss, crf_of, crf_transitions
from .bmes_tags import bmes_tags
from .gap_labels import gap_labels
from .softmax_loss import softmax_cross_entropy
from .word_start_decoders import GapDecoder, TagDecoder


class GapScheme:
    """Gap labels (boundary / no boundary before each unit and after the last),
    softmax cross-entropy on every head, greedy decoding from head 0
    (Duan & Zhao 2020, section 3.4: no tuned threshold)."""

    gold = staticmethod(gap_labels)

    def loss(self, model: Model, scores: List[Floats3d], gold: List[numpy.ndarray]) -> Tuple[float, List[Floats3d]]:
        return softmax_cross_entropy(model.ops, scores, gold)

    def decoder(self, model: Model) -> GapDecoder:
        """Greedy decoding of the gap scores (per sequence (H, n + 1, 2))."""
        return GapDecoder()

    def word_starts(self, model: Model, scores: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """Per sequence bool (n,): the gap before each unit is a boundary (GapDecoder)."""
        return self.decoder(model).word_starts(scores)


class BMESScheme:
    """B/M/E/S tags per unit: CRF negative log-likelihood and constrained
    Viterbi with the CRF decoder, else per-unit softmax and argmax."""

    gold = staticmethod(bmes_tags)

    def loss(self, model: Model, scores: List[Floats3d], gold: List[numpy.ndarray]) -> Tuple[float, List[Floats3d]]:
        if crf_of(model) is not None:
            return crf_loss(model, scores, gold)
        return softmax_cross_entropy(model.ops, scores, gold)

    def decoder(self, model: Model) -> TagDecoder:
        """Decoding of the emissions (per sequence (1, n, 4)): constrained
        Viterbi under the model's CRF scores, or argmax without a CRF."""
        return TagDecoder(crf_transitions(model) if crf_of(model) is not None else None)

    def word_starts(self, model: Model, scores: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """Per sequence bool (n,): units tagged B or S (TagDecoder)."""
        return self.decoder(model).word_starts(scores)


SCHEMES = {"gaps": GapScheme(), "bmes": BMESScheme()}


def label_scheme(model: Model):
    """The scheme of a segmentation model (a GD model saved before schemes existed has none: gaps).

    RAISES ValueError: for a model with an unknown ``attrs["labels"]``.
    """
    name = model.attrs.get("labels", "gaps")
    if name not in SCHEMES:
        raise ValueError(f"Model '{model.name}' predicts '{name}' labels; the segmenter knows {sorted(SCHEMES)}")
    return SCHEMES[name]
