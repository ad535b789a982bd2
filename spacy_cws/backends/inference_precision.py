"""The precision a loaded pipeline's network predicts in on this machine."""
from typing import Optional

from spacy.language import Language

from ..segmenter.pipeline_segmenters import segmenters_of


def inference_precision_of(nlp: Language) -> Optional[str]:
    """The precision the pipeline's first segmenter predicts in on this CPU
    ("auto" resolved: Segmenter.inference_precision); None without a segmenter."""
    return next((segmenter.inference_precision for segmenter in segmenters_of(nlp)), None)
