"""Where words start, from a segmentation network's scores: numpy only.

The last stage of prediction (segmenter/featurizer.py makes the features, a backend
runs the network). A decoder belongs to the scheme the network predicts
(label_schemes.py): gap scores are decoded greedily from head 0 (Duan & Zhao
2020, section 3.4: no tuned threshold), B/M/E/S emissions by constrained
Viterbi under a CRF's learned scores (viterbi.py) or, without a CRF, by
argmax per unit. Importing this needs no torch: a backend gives the CRF's
scores as numpy arrays.
"""
from typing import List, Optional, Sequence, Tuple

import numpy

from .bmes_tags import starts_from_tags
from .viterbi import viterbi_bmes

# A CRF's learned scores: start (4,), transitions (4, 4) from row tag to column tag, end (4,).
CrfScores = Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]


class GapDecoder:
    """Greedy gap decoding: a word starts where head 0 scores "boundary" above "no boundary"."""

    labels = "gaps"

    def word_starts(self, scores: Sequence[numpy.ndarray]) -> List[numpy.ndarray]:
        """scores: per sequence float (H, n + 1, 2). RETURNS per sequence bool (n,):
        the gap before each unit is a boundary (unit 0's is the sequence edge)."""
        return [score[0, :-1, 1] > score[0, :-1, 0] for score in scores]


class TagDecoder:
    """B/M/E/S decoding: a word starts at a unit tagged B or S.

    crf: the CRF's scores, for constrained Viterbi; None: argmax per unit.
    """

    labels = "bmes"

    def __init__(self, crf: Optional[CrfScores] = None):
        self.crf = None if crf is None else tuple(numpy.asarray(part, dtype=numpy.float32) for part in crf)

    def word_starts(self, scores: Sequence[numpy.ndarray]) -> List[numpy.ndarray]:
        """scores: per sequence float (1, n, 4). RETURNS per sequence bool (n,): units tagged B or S."""
        if self.crf is not None:
            tags = viterbi_bmes([score[0] for score in scores], *self.crf)
        else:
            tags = [score[0].argmax(axis=-1) for score in scores]
        return [starts_from_tags(seq_tags) for seq_tags in tags]


def word_start_decoder(labels: str, crf: Optional[CrfScores] = None):
    """The decoder of a network predicting ``labels`` ("gaps" or "bmes").

    RAISES ValueError: for other labels.
    """
    if labels == GapDecoder.labels:
        return GapDecoder()
    if labels == TagDecoder.labels:
        return TagDecoder(crf)
    raise ValueError(f"A segmentation network predicts 'gaps' or 'bmes' labels, got '{labels}'")
