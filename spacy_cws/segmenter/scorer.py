"""The segmenter's scorer: spaCy's tokenization P/R/F over the predicted words."""
from typing import Any, Dict, Iterable

from spacy.scorer import Scorer
from spacy.training import Example
from spacy.util import registry


def score_segmentation(examples: Iterable[Example], **kwargs) -> Dict[str, Any]:
    """token_acc, token_p, token_r, token_f (fractions) by Scorer.score_tokenization."""
    return Scorer.score_tokenization(examples)


@registry.scorers("spacy-cws.segmentation_scorer.v1")
def make_segmentation_scorer():
    return score_segmentation
