"""The keyword arguments that build a segmentation model's torch module, read
from its thinc shell (segmentation_model.py) without torch: the module is
built from them at training (feature_batch.wrap_module) and at inference
(inference.py)."""
from thinc.api import Model


def module_arguments(model: Model) -> dict:
    """The keyword arguments that build the torch module of ``model``: the
    vocabulary sizes (dims nV, nB, nC, nL) and the architecture's settings.
    A model that reads a character LM (attrs ``charlm_path``) also gets
    its folder and the symbol vocabulary (attrs ``symbols``, set with the dims).
    RAISES ValueError (thinc's): for a dim not yet set."""
    arguments = dict(
        n_symbols=model.get_dim("nV"),
        n_bigrams=model.get_dim("nB"),
        n_criteria=model.get_dim("nC"),
        n_lexicon_bits=model.get_dim("nL"),
        **model.attrs["settings"],
    )
    if "charlm_path" in model.attrs:
        arguments.update(charlm_path=str(model.attrs["charlm_path"]), symbols=model.attrs["symbols"])
    return arguments
