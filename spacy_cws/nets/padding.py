"""Padding per-sequence arrays into one batch for a torch module, and back.

thinc's ``ops.pad`` and ``ops.unpad`` do the work; this adds what every
PyTorchWrapper_v2 conversion of spacy-cws needs around them: the mask of the
real positions (:func:`length_mask`), and the unpadding of a module's output
together with its backward step, which pads the per-sequence gradients again
(:func:`unpad_outputs`). Integer inputs built on the host (ids, hashes) are
padded there with HOST_OPS and moved to the torch device once, by xp2torch.
"""
from typing import Callable, List, Sequence, Tuple

import torch
from thinc.api import ArgsKwargs, NumpyOps, Ops, get_array_module, torch2xp, xp2torch
from thinc.types import Array2d, ArrayXd

HOST_OPS = NumpyOps()


def length_mask(ops: Ops, lengths: Sequence[int], width: int) -> Array2d:
    """bool (B, width), on ``ops``' device: True at the positions below each
    sequence's length (B = len(lengths))."""
    xp = ops.xp
    return xp.arange(width)[None, :] < xp.asarray(lengths)[:, None]


def unpad_outputs(
    ops: Ops, Y_torch: torch.Tensor, lengths: Sequence[int], batch_axis: int = 0
) -> Tuple[List[ArrayXd], Callable[[List[ArrayXd]], ArgsKwargs]]:
    """A torch module's padded output as per-sequence arrays (thinc's
    ``ops.unpad``), and the backward converter of PyTorchWrapper_v2.

    Y_torch: (..., B, T, ...) with the batch at axis ``batch_axis`` and the
        positions right after it, e.g. (B, T, d), or (H, B, T, 2) with
        batch_axis 1.
    lengths: per sequence its number of positions; max(lengths) == T.
    RETURNS per sequence b the array Y[..., b, :lengths[b], ...] (a view, on
        Y_torch's device), and a callback that takes per-sequence gradients
        of those shapes and returns the ArgsKwargs for torch's backward pass
        (the gradients, as Y's dtype, padded with zeros to Y_torch's shape by
        ``ops.pad``).
    RAISES ValueError (from ops.pad) when the backward callback gets no
        gradients or gradients of mixed shapes.
    """
    Y = torch2xp(Y_torch)
    xp = get_array_module(Y)
    axes = (batch_axis, batch_axis + 1)
    by_sequence = xp.moveaxis(Y, axes, (0, 1))  # (B, T, ...)
    outputs = [xp.moveaxis(y, 0, batch_axis) for y in ops.unpad(by_sequence, list(lengths))]

    def convert_for_torch_backward(dY: List[ArrayXd]) -> ArgsKwargs:
        padded = ops.pad([ops.xp.moveaxis(ops.asarray(d, dtype=Y.dtype), batch_axis, 0) for d in dY])  # (B, T, ...)
        dY_padded = ops.xp.ascontiguousarray(ops.xp.moveaxis(padded, (0, 1), axes))
        return ArgsKwargs(args=(Y_torch,), kwargs={"grad_tensors": xp2torch(dY_padded)})

    return outputs, convert_for_torch_backward
