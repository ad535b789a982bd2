"""Where a loaded pipeline keeps its segmenters: in components, and in a
SegmenterTokenizer; the one component a command works on; and the precision a loaded pipeline's network predicts in
on this machine."""
from typing import List, Optional, Tuple

from spacy.language import Language

from .component import Segmenter
from .segmenter_tokenizer import SegmenterTokenizer


def segmenters_of(nlp: Language) -> List[Segmenter]:
    """The pipeline's segmenters: its gd_segmenter components and a SegmenterTokenizer's."""
    found = [proc for _, proc in nlp.pipeline if isinstance(proc, Segmenter)]
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        found.append(nlp.tokenizer.segmenter)
    return found


def segmenter_component(nlp: Language, name: Optional[str] = None) -> Tuple[str, Segmenter]:
    """The pipeline's gd_segmenter component named ``name`` (None: its first one): (its name, it).

    RAISES ValueError naming the pipeline's components: if it has no
        component ``name``, if that is not a gd_segmenter, or if it has no
        gd_segmenter component (a to-tokenizer copy: its segmenter is its tokenizer).
    """
    components = f"its components: {', '.join(nlp.pipe_names)}" if nlp.pipe_names else "it has no components"
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        components += (
            "; it is a to-tokenizer copy, whose segmenter is its tokenizer: use the pipeline it was made from, "
            "then run to-tokenizer on the result"
        )
    if name is None:
        found = next(((found, proc) for found, proc in nlp.pipeline if isinstance(proc, Segmenter)), None)
        if found is None:
            raise ValueError(f"The pipeline has no gd_segmenter component ({components})")
        return found
    if name not in nlp.pipe_names:
        raise ValueError(f"The pipeline has no component '{name}' ({components})")
    if not isinstance(nlp.get_pipe(name), Segmenter):
        raise ValueError(f"The pipeline's component '{name}' is not a gd_segmenter ({components})")
    return name, nlp.get_pipe(name)


def inference_precision_of(nlp: Language) -> Optional[str]:
    """The precision the pipeline's first segmenter predicts in on this CPU
    ("auto" resolved: Segmenter.inference_precision); None without a segmenter."""
    return next((segmenter.inference_precision for segmenter in segmenters_of(nlp)), None)
