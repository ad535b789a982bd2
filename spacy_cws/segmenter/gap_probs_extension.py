"""``doc._.gap_probs``: the probability of a word boundary at each gap between characters.

Set by the ``gd_segmenter`` component on every Doc it segments (a pipeline
made by ``to-tokenizer`` has no such component: call its segmenter's
``segment_with_probs``): float32 (max(len(doc.text) - 1, 0),), element i the
probability of a boundary between doc.text[i] and doc.text[i + 1]
(boundary_probabilities.py: the GD model's gap softmax of head 0, the BMES
taggers' CRF marginals; 1 next to whitespace, 0 inside a number or Latin
word). None for a Doc no segmenter has seen. Kept in the Doc's user data, so a
DocBin saved with ``store_user_data=True`` keeps it.

Which gaps are uncertain (probabilities near 0.5) is what active learning and
annotation tools ask a person about, and the gaps far from 0.5 are the partial
labels of self-training (adaptation/self_training.py).
"""
from typing import Optional

import numpy
from spacy.tokens import Doc

from .merge_words import SegmentedText

ATTR = "gap_probs"
_KEY = ("._.", ATTR, None, None)

if not Doc.has_extension(ATTR):
    Doc.set_extension(ATTR, default=None)


class ScoredText(SegmentedText):
    """A text and its predicted words (SegmentedText: it unpacks as
    ``text, words``), with its gap probabilities as ``gap_probs``: float32
    (max(len(text) - 1, 0),). ``predict`` of gd_segmenter gives one per Doc.
    """

    gap_probs: numpy.ndarray

    @classmethod
    def of(cls, text: str, words: numpy.ndarray, gap_probs: numpy.ndarray) -> "ScoredText":
        scored = cls(text, words)
        scored.gap_probs = gap_probs
        return scored


def set_gap_probs(doc: Doc, gap_probs: Optional[numpy.ndarray], text: Optional[str] = None) -> None:
    """Store ``gap_probs`` as ``doc._.gap_probs``.

    text: the Doc's text where the caller holds it (else doc.text is read).
    RAISES ValueError: if its length is not max(len(text) - 1, 0).
    """
    n_gaps = max(len(doc.text if text is None else text) - 1, 0)
    if gap_probs is not None and len(gap_probs) != n_gaps:
        raise ValueError(
            f"doc._.{ATTR} needs one probability per gap between characters ({n_gaps}), got {len(gap_probs)}"
        )
    doc.user_data[_KEY] = gap_probs
