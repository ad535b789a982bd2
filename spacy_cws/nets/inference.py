"""Prediction with a frozen copy of a segmentation model's torch module.

thinc's PyTorchShim.predict switches the module to eval mode and back to
train mode after every call, so two threads predicting at once can run with
dropout, and a prediction shares the training module's mutable state. The
segmenter instead predicts with a copy made here once per set of weights: in
eval mode for good, no gradients, run under torch.inference_mode, never
written to after it is built, so any number of threads may use it at once.
In float32 it shares the trained module's weight storage (not its mode or
its autograd state), float16 n-gram tables included (lookup_table.py); in
bfloat16 it casts every weight but those tables.
Training keeps using the thinc model (begin_update sets train mode).

The copy is built from the saved weights at inference time and never saved:
the GD-Transformer becomes a FusedGDTransformer (its encoders stacked), and
``precision`` chooses its dtype.
"""
import warnings
from typing import Callable, Dict, List

import torch
from thinc.api import Model
from thinc.types import Floats3d, Ints2d
from torch import nn

from .lookup_table import cast_keeping_stored_tables
from .module_arguments import module_arguments
from .module_weights import assign_weights
from .pytorch_fused_gd import FusedGDTransformer
from .precisions import AUTO_PRECISION, check_precision  # also importable from here, their home before
from .pytorch_gd_transformer import GDTransformer
from .wrapped_module import torch_module

# The dtype of the copy's weights and activations, by precision name (precisions.py).
PRECISIONS: Dict[str, torch.dtype] = {"float32": torch.float32, "bfloat16": torch.bfloat16}
# Torch module classes with an inference-only variant of the same weights.
INFERENCE_CLASSES: Dict[type, type] = {GDTransformer: FusedGDTransformer}


def native_bfloat16() -> bool:
    """Whether this CPU has bfloat16 matmul instructions (AVX512-BF16 or AMX tiles).

    torch.cpu's checks are private in torch 2.13, and no public one fits:
    torch.backends.cpu.get_cpu_capability() says "AVX512" for CPUs with and
    without BF16. A torch without them counts as no native bfloat16.
    """
    checks = (getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"))
    return any(check() for check in checks if check is not None)


def resolve_precision(precision: str) -> str:
    """The precision an inference copy runs in: ``precision``, or for "auto"
    "bfloat16" on a CPU with native bfloat16 (``native_bfloat16``) and
    "float32" elsewhere.

    RAISES ValueError: for an unknown precision.
    """
    check_precision(precision)
    if precision == AUTO_PRECISION:
        return "bfloat16" if native_bfloat16() else "float32"
    return precision


def inference_module(model: Model, precision: str) -> nn.Module:
    """A frozen copy of ``model``'s torch module for prediction (see the module docstring).

    model: an initialized segmentation model (GDTransformer.v1, BMESTagger.v1).
    precision: a key of PRECISIONS, or "auto" (resolve_precision).
    RAISES ValueError: for an unknown precision or an uninitialized model.
    WARNS UserWarning: for "bfloat16" on a CPU without native bfloat16 (slow;
        "auto" decides by this CPU too, also for a model on a GPU).
    """
    precision = resolve_precision(precision)
    trained = torch_module(model)
    on_cpu = all(parameter.device.type == "cpu" for parameter in trained.parameters())
    if precision == "bfloat16" and on_cpu and not native_bfloat16():
        warnings.warn(
            'precision = "bfloat16" on a CPU without AVX512-BF16 or AMX: torch emulates bfloat16 here, about 20x '
            'slower than float32. Set the segmenter\'s precision to "auto" or "float32".',
            stacklevel=2,
        )
    dtype = PRECISIONS[precision]
    with torch.device("meta"):  # no weights of its own: it takes the trained ones
        module = INFERENCE_CLASSES.get(type(trained), type(trained))(**module_arguments(model))
    # Assigned, not copied: the copy's float32 weights share the trained weights'
    # storage (a bfloat16 cast makes its own). Every weight change
    # (finish_update, use_params, from_bytes) drops the copy, so it never runs
    # on half-updated weights.
    assign_weights(module, trained.state_dict())
    cast_keeping_stored_tables(module.eval().requires_grad_(False), dtype)
    if hasattr(module, "prepare"):
        module.prepare()
    return module


def predict_with(module: nn.Module, model: Model, X: List[Ints2d]) -> List[Floats3d]:
    """``model.predict(X)`` computed by ``module`` (from inference_module):
    the same input padding and output unpadding as the model's PyTorchWrapper,
    under torch.inference_mode, touching no state of ``model``.

    X: per sequence int (n, k) features. RETURNS per sequence float32 scores as
    model.predict, as numpy arrays: the batch's scores are copied to the host
    once (decoding runs there).
    """
    if not X:
        return []
    wrapper = model.layers[0]
    convert_inputs: Callable = wrapper.attrs["convert_inputs"]
    convert_outputs: Callable = wrapper.attrs["convert_outputs"]
    inputs, _ = convert_inputs(wrapper, X, False)
    with torch.inference_mode():
        scores = module(*inputs.args, **inputs.kwargs).float().cpu()
    outputs, _ = convert_outputs(wrapper, (X, scores), False)
    return outputs
