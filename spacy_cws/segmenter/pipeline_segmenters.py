"""Where a loaded pipeline keeps its segmenters: in components, and in a SegmenterTokenizer."""
from typing import List

from spacy.language import Language

from .component import Segmenter
from .segmenter_tokenizer import SegmenterTokenizer


def segmenters_of(nlp: Language) -> List[Segmenter]:
    """The pipeline's segmenters: its gd_segmenter components and a SegmenterTokenizer's."""
    found = [proc for _, proc in nlp.pipeline if isinstance(proc, Segmenter)]
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        found.append(nlp.tokenizer.segmenter)
    return found
