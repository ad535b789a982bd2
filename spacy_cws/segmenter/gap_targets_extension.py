"""``doc._.gap_targets``: a training Doc's soft targets, per gap between characters.

Set on the reference Docs of a distillation corpus (``teacher-corpus --soft``):
float32 (max(len(doc.text) - 1, 0),), element i a teacher's probability of a
word boundary between doc.text[i] and doc.text[i + 1] (an ensemble's mean
``doc._.gap_probs``, gap_probs_extension.py), or -1 where it is unknown
(masked out of the loss). None for a Doc without them: its words are its
labels. Kept in the Doc's user data, so a DocBin saved with
``store_user_data=True`` keeps it.

Where a reference Doc has them, the segmenter learns the targets instead of
the Doc's words (training_steps.gold_loss; gap models only); its words stay
what spaCy's scorer reads.
"""
from typing import Optional

import numpy
from spacy.tokens import Doc

ATTR = "gap_targets"
_KEY = ("._.", ATTR, None, None)
UNKNOWN = -1.0


def get_gap_targets(doc: Doc) -> Optional[numpy.ndarray]:
    """The Doc's gap targets; None where it has none."""
    return doc.user_data.get(_KEY)


def set_gap_targets(doc: Doc, targets: Optional[numpy.ndarray]) -> None:
    """Store ``targets`` (as float32) as ``doc._.gap_targets``; None removes them.

    RAISES ValueError: if they are not one value per gap between the Doc's
        characters (max(len(doc.text) - 1, 0)), or a value is neither in [0, 1] nor -1 (unknown).
    """
    if targets is None:
        doc.user_data.pop(_KEY, None)
        return
    targets = numpy.asarray(targets, dtype=numpy.float32)
    n_gaps = max(len(doc.text) - 1, 0)
    if targets.shape != (n_gaps,):
        raise ValueError(
            f"doc._.{ATTR} needs one target per gap between characters: shape ({n_gaps},) for a text of "
            f"{len(doc.text)} characters, got {targets.shape}"
        )
    bad = ~(((targets >= 0) & (targets <= 1)) | (targets == UNKNOWN))
    if bad.any():
        first = int(numpy.flatnonzero(bad)[0])
        raise ValueError(
            f"doc._.{ATTR} holds boundary probabilities in [0, 1] or {UNKNOWN:g} (unknown): "
            f"gap {first} is {targets[first]}"
        )
    doc.user_data[_KEY] = targets


if not Doc.has_extension(ATTR):
    Doc.set_extension(ATTR, getter=get_gap_targets, setter=set_gap_targets)
