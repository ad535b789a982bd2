"""Where a loaded pipeline keeps its segmenters: in components, and in a
SegmenterTokenizer; and the precision a loaded pipeline's network predicts in
on this machine."""
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
