"""The thinc shell of a segmentation model, made without torch.

An architecture function (gd_transformer.py, bmes_tagger.py) runs when a
pipeline's config is resolved; it returns this shell, whose torch module is
built only in ``init`` (feature_batch.wrap_module). A pipeline whose network
runs on ONNX Runtime (backends/) never initializes the shell, so loading it
imports no torch.
"""
from functools import partial
from typing import Callable, List

from thinc.api import Model
from thinc.types import Ints2d


def segmentation_model(
    name: str, module_class: Callable[[], type], settings: dict, convert_outputs: Callable, edges: bool, **attrs
) -> Model:
    """An outer thinc Model around a torch segmentation module (GDTransformer,
    BMESTagger), built in ``init`` once the segmenter has set the dims nV
    (unigram ids), nB (bigram ids), nC (criteria) and nL (lexicon flags), following
    spacy-experimental's pairwise_bilinear wrapper.

    module_class: RETURNS the torch module's class (imported only then).
    settings: the module's keyword arguments besides the vocabulary sizes.
    convert_outputs: PyTorchWrapper_v3's, unpadding the module's output.
    edges: whether the input gets BOS/EOS (see padded_inputs.py).
    attrs: more model attrs, e.g. labels = "bmes".
    The model's ``attrs["dropout_rate"]`` (at first the ``dropout`` setting;
    ``thinc.api.set_dropout_rate`` sets it) is the torch module's dropout in
    training (dropout.py); ``attrs["torch_module"]`` is the module, once built.
    """
    return Model(
        name,
        _forward,
        init=partial(_init, module_class, convert_outputs, edges),
        dims={"nV": None, "nB": None, "nC": 0, "nL": 0},
        attrs={"settings": settings, "dropout_rate": settings["dropout"], **attrs},
    )


def _init(module_class: Callable[[], type], convert_outputs, edges: bool, model: Model, X=None, Y=None) -> None:
    if model.layers:
        return
    from .feature_batch import wrap_module  # torch, from here on

    wrap_module(model, module_class(), convert_outputs, edges)


def _forward(model: Model, X: List[Ints2d], is_train: bool):
    from .feature_batch import forward

    return forward(model, X, is_train)
