"""Which criterion a loaded pipeline's segmenters segment by where a Doc names none."""
from spacy.language import Language

from .pipeline_segmenters import segmenters_of


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
