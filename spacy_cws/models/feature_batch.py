"""The thinc shell of a torch segmentation model, and the padding of its input.

Every segmentation architecture reads the same input: per sequence an int
array (n, 11) of unigram id, left bigram id, right bigram id, criterion id
(segmenter/symbol_ids.py), lexicon flags (lexicon/match_features.py) and six
trigram hashes (segmenter/ngram_hashes.py). This pads a batch of them, with or without BOS/EOS
around each sequence (the GD-Transformer scores the gaps at the edges; a BMES
tagger tags only the characters).
"""
from functools import partial
from typing import Callable, List, Tuple, Type

import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v3, xp2torch
from thinc.types import Ints2d

from .dropout import set_module_dropout
from .module_weights import build_module, load_module_weights
from .padded_inputs import (  # noqa: F401  (the column counts and the length multiple, as before)
    INFERENCE_LENGTH_MULTIPLE,
    N_BASE_COLUMNS,
    N_FEATURE_COLUMNS,
    padded_inputs,
    padded_length,
)



def pad_features(model: Model, X: List[Ints2d], is_train: bool, edges: bool) -> Tuple[ArgsKwargs, callable]:
    """thinc convert_inputs for PyTorchWrapper_v3: padded_inputs.padded_inputs
    (see there for X, edges and the arrays) as torch int64 tensors on torch's
    default device, and a backward callback that returns nothing (integer
    inputs have no gradient).

    RAISES ValueError (from ops.pad) when the sequences differ in width or dtype.
    """
    args = tuple(xp2torch(a) for a in padded_inputs(X, edges, is_train))
    return ArgsKwargs(args=args, kwargs={}), lambda d_inputs: []


def segmentation_model(
    name: str, module_class: Type[torch.nn.Module], settings: dict, convert_outputs: Callable, edges: bool, **attrs
) -> Model:
    """An outer thinc Model around a torch segmentation module (GDTransformer,
    BMESTagger), built in ``init`` once the segmenter has set the dims nV
    (unigram ids), nB (bigram ids), nC (criteria) and nL (lexicon flags), following
    spacy-experimental's pairwise_bilinear wrapper.

    settings: the module's keyword arguments besides the vocabulary sizes.
    convert_outputs: PyTorchWrapper_v3's, unpadding the module's output.
    edges: whether the input gets BOS/EOS (see pad_features).
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


def module_arguments(model: Model) -> dict:
    """The keyword arguments that build the torch module of ``model``: the
    vocabulary sizes (dims nV, nB, nC) and the architecture's settings."""
    return dict(
        n_symbols=model.get_dim("nV"),
        n_bigrams=model.get_dim("nB"),
        n_criteria=model.get_dim("nC"),
        n_lexicon_bits=model.get_dim("nL"),
        **model.attrs["settings"],
    )


def _init(module_class, convert_outputs, edges: bool, model: Model, X=None, Y=None) -> None:
    if model.layers:
        return
    module = build_module(module_class, **module_arguments(model))
    convert_inputs = partial(pad_features, edges=edges)
    model._layers.append(
        PyTorchWrapper_v3(
            module,
            convert_inputs=convert_inputs,
            convert_outputs=convert_outputs,
            deserialize_model=load_module_weights,
        )
    )
    # The wrapper's shim holds the module privately; the segmenter reaches it
    # here (the shim loads weights into this same object).
    model.attrs["torch_module"] = module


def _forward(model: Model, X: List[Ints2d], is_train: bool):
    if not X:
        return [], lambda dY: []
    if is_train:
        set_module_dropout(model.attrs["torch_module"], model.attrs["dropout_rate"])
    return model.layers[0](X, is_train)
