"""The torch side of a segmentation model's thinc shell: its wrapped module and the padding of its input.

Every segmentation architecture reads the same input: per sequence an int
array (n, 11) of unigram id, left bigram id, right bigram id, criterion id
(features/symbol_ids.py), lexicon flags (lexicon/match_features.py) and six
trigram hashes (features/ngram_hashes.py). This pads a batch of them, with or without BOS/EOS
around each sequence (the GD-Transformer scores the gaps at the edges; a BMES
tagger tags only the characters).
"""
from functools import partial
from typing import Callable, List, Tuple, Type

import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v3, xp2torch
from thinc.types import Ints2d

from .. import fork_safety  # noqa: F401  (torch in forked nlp.pipe workers)
from .dropout import set_module_dropout
from .module_arguments import module_arguments
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


def wrap_module(model: Model, module_class: Type[torch.nn.Module], convert_outputs: Callable, edges: bool) -> None:
    """Build ``model``'s torch module from its dims and settings
    (module_arguments.py) and add it as the model's one
    layer, a PyTorchWrapper_v3 padding the input (pad_features) and
    unpadding the output (``convert_outputs``). ``model.attrs["torch_module"]``
    is the module (the wrapper's shim holds it privately; the shim loads
    weights into this same object)."""
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
    model.attrs["torch_module"] = module


def forward(model: Model, X: List[Ints2d], is_train: bool):
    """The wrapped module's forward pass, with the model's dropout rate in training."""
    if not X:
        return [], lambda dY: []
    if is_train:
        set_module_dropout(model.attrs["torch_module"], model.attrs["dropout_rate"])
    return model.layers[0](X, is_train)
