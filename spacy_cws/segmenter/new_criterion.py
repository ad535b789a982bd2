"""A new segmentation criterion for a trained GD segmenter, that leaves its other criteria as they are.

A multi-criteria segmenter gets one more criterion embedding
(Segmenter.add_criterion); a single-criterion one first gets two criteria,
``source`` (the standard it was trained on) and the new one, embeddings of
zeros (nets/criterion_growth.py). The new criterion also gets gap scoring
heads of its own, copies of the shared ones. Until trained, the new
criterion segments exactly as the source criterion does (a multi-criteria
model's new embedding is the mean of the others: near them); and training
only its embedding row and heads (CRITERION_PARAMETERS) never changes what
the other criteria compute.
"""
from .component import Segmenter

# The architectures whose settings take criterion_heads (v1 is v2 without trigrams).
GD_ARCHITECTURES = {"spacy-cws.GDTransformer.v1": "spacy-cws.GDTransformer.v2", "spacy-cws.GDTransformer.v2": None}


def add_new_criterion(segmenter: Segmenter, name: str, source: str, model_config: dict) -> str:
    """Add the criterion ``name``, with gap heads of its own, to ``segmenter``
    (its default criterion is left as it is).

    source: the name that the criterion of a single-criterion model's
        training gets.
    model_config: the component's model block in the pipeline's config
        (nlp.get_pipe_config(name)["model"]): it gets ``criterion_heads``,
        so the saved pipeline builds the new heads when it loads.
    RETURNS: the criterion the segmenter segmented by before: its default
        criterion, or ``source`` for a single-criterion model.
    RAISES ValueError: if the segmenter already has the criterion, ``name``
        equals ``source``, or its model is not a GD-Transformer;
        ImportError: without torch, naming the train extra.
    """
    from ..nets.criterion_growth import add_criterion_head, add_first_criteria

    segmenter.network.check_initialized(segmenter.name)
    architecture = model_config.get("@architectures")
    if architecture not in GD_ARCHITECTURES:
        raise ValueError(
            f"'{segmenter.name}' has the architecture {architecture}: a new criterion with its own gap heads "
            f"needs a GD-Transformer ({', '.join(GD_ARCHITECTURES)})"
        )
    if segmenter.criteria:
        before = segmenter.cfg["criterion"] or segmenter.criteria[0]
        segmenter.add_criterion(name)
    else:
        if name == source:
            raise ValueError(f"The new criterion needs a name other than the source's ('{source}')")
        segmenter.network.require_weights(segmenter.name)
        add_first_criteria(segmenter.model, 2)
        segmenter.featurizer.criteria = [source, name]
        before = source
    add_criterion_head(segmenter.model, segmenter.criteria.index(name))
    segmenter.network.weights_changed()
    model_config["@architectures"] = GD_ARCHITECTURES[architecture] or architecture
    model_config["criterion_heads"] = list(segmenter.model.attrs["settings"]["criterion_heads"])
    return before
