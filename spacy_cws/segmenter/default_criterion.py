"""A loaded pipeline's segmenters: which they are, the criterion they segment by, the precision they predict in."""
from typing import List, Optional

from spacy.language import Language

from .component import Segmenter
from .segmenter_tokenizer import SegmenterTokenizer


def segmenters_of(nlp: Language) -> List[Segmenter]:
    """The pipeline's segmenters: its gd_segmenter components and a SegmenterTokenizer's."""
    found = [proc for _, proc in nlp.pipeline if isinstance(proc, Segmenter)]
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        found.append(nlp.tokenizer.segmenter)
    return found


def inference_precision_of(nlp: Language) -> Optional[str]:
    """The precision the pipeline's first segmenter predicts in on this CPU
    ("auto" resolved: Segmenter.inference_precision); None without a segmenter."""
    return next((segmenter.inference_precision for segmenter in segmenters_of(nlp)), None)


def set_default_criterion(nlp: Language, criterion: str) -> None:
    """Segment by ``criterion`` wherever a Doc names none (a Doc's own
    doc._.cws_criterion still wins): the same as the ``criterion`` setting in the
    pipeline's config.

    RAISES ValueError: if the pipeline has no multi-criteria segmenter, or one
        does not know the criterion (the message lists the known ones).
    """
    segmenters = [segmenter for segmenter in segmenters_of(nlp) if segmenter.criteria]
    if not segmenters:
        raise ValueError(
            f"Cannot segment by the criterion '{criterion}': the pipeline has no multi-criteria segmenter"
        )
    for segmenter in segmenters:
        if criterion not in segmenter.criteria:
            raise ValueError(
                f"Unknown criterion '{criterion}' for '{segmenter.name}': the known criteria are "
                f"{', '.join(segmenter.criteria)}"
            )
        segmenter.cfg["criterion"] = criterion
