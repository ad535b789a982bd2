"""A new segmentation criterion for a trained GD segmenter, that leaves its other criteria as they are.

A multi-criteria segmenter gets one more criterion embedding
(Segmenter.add_criterion); a single-criterion one first gets two criteria,
``source`` (the standard it was trained on) and the new one, embeddings of
zeros (nets/criterion_growth.py). The new criterion also gets gap scoring
heads of its own, copies of the shared ones, and (``top_layer``) a copy of
its own of every encoder's top layer. Until trained, the new criterion
segments exactly as the source criterion does (a multi-criteria model's new
embedding is the mean of the others: near them); and training only its
embedding row, heads and top layers (CRITERION_PARAMETERS) never changes
what the other criteria compute.
"""
from .component import Segmenter

# The GD-Transformer architectures, each with the one its settings become
# with criteria of their own heads (v2: criterion_heads; v1 is v2 without
# trigrams) and of their own top layers (v3: criterion_layers; v4 adds character LM features).
GD_ARCHITECTURES = {
    "spacy-cws.GDTransformer.v1": ("spacy-cws.GDTransformer.v2", "spacy-cws.GDTransformer.v3"),
    "spacy-cws.GDTransformer.v2": ("spacy-cws.GDTransformer.v2", "spacy-cws.GDTransformer.v3"),
    "spacy-cws.GDTransformer.v3": ("spacy-cws.GDTransformer.v3", "spacy-cws.GDTransformer.v3"),
    "spacy-cws.GDTransformer.v4": ("spacy-cws.GDTransformer.v4", "spacy-cws.GDTransformer.v4"),
}


def add_new_criterion(segmenter: Segmenter, name: str, source: str, model_config: dict, top_layer: bool = False) -> str:
    """Add the criterion ``name``, with gap heads of its own, and with
    ``top_layer`` its own copy of every encoder's top layer, to ``segmenter``
    (its default criterion is left as it is).

    source: the name that the criterion of a single-criterion model's
        training gets.
    model_config: the component's model block in the pipeline's config
        (nlp.get_pipe_config(name)["model"]): it gets ``criterion_heads``
        (and ``criterion_layers``), so the saved pipeline builds the new
        heads and layers when it loads.
    RETURNS: the criterion the segmenter segmented by before: its default
        criterion, or ``source`` for a single-criterion model.
    RAISES ValueError: if the segmenter already has the criterion, ``name``
        equals ``source`` (check_new_criterion_name), or its model is not a
        GD-Transformer;
        ImportError: without torch, naming the train extra.
    """
    from ..nets.criterion_growth import add_criterion_head, add_criterion_layer, add_first_criteria

    segmenter.network.check_initialized(segmenter.name)
    architecture = model_config.get("@architectures")
    if architecture not in GD_ARCHITECTURES:
        raise ValueError(
            f"'{segmenter.name}' has the architecture {architecture}: a new criterion with its own gap heads "
            f"needs a GD-Transformer ({', '.join(GD_ARCHITECTURES)})"
        )
    check_new_criterion_name(segmenter, name, source)
    if segmenter.criteria:
        before = segmenter.cfg["criterion"] or segmenter.criteria[0]
        segmenter.add_criterion(name)
    else:
        segmenter.network.require_weights(segmenter.name)
        add_first_criteria(segmenter.model, 2)
        segmenter.featurizer.criteria = [source, name]
        before = source
    settings = segmenter.model.attrs["settings"]
    add_criterion_head(segmenter.model, segmenter.criteria.index(name))
    if top_layer:
        add_criterion_layer(segmenter.model, segmenter.criteria.index(name))
    segmenter.network.weights_changed()
    model_config["@architectures"] = GD_ARCHITECTURES[architecture][bool(settings.get("criterion_layers"))]
    model_config["criterion_heads"] = list(settings["criterion_heads"])
    if settings.get("criterion_layers"):
        model_config["criterion_layers"] = list(settings["criterion_layers"])
    return before


def check_new_criterion_name(segmenter: Segmenter, name: str, source: str) -> None:
    """RAISES ValueError: if ``segmenter`` has a criterion ``name`` already (a
    single-criterion one: its source criterion's name ``source``)."""
    taken = segmenter.criteria or [source]
    if name in taken:
        raise ValueError(
            f"'{segmenter.name}' has the criterion '{name}' already (its criteria: {', '.join(taken)}): "
            "give the new one another name (--criterion)"
        )
