"""The GD-Transformer's parallel encoders run as one batched computation (inference only).

Duan & Zhao (EMNLP 2020), section 3.2, eq. (2)-(6): the centre, forward and
backward encoders have the same shapes and read the same input, so their
weights are stacked on a leading encoder axis E and each layer runs as
batched matmuls (torch.baddbmm) over (E, B * T, d) instead of E separate
modules. The stacks are built from trained DirectionalEncoder layers (their
parameters stay the saved ones); nothing here is trained or saved.

Attention follows GaussianDirectionalAttention exactly: S = (Q K^T /
sqrt(d_head)) * G, masked keys -inf, softmax. The Gaussian and 1/sqrt(d_head)
are one cached (T, T) factor and the direction and padding masks one additive
(E, B, 1, T, T) bias built once per batch, so a layer applies both with a
single torch.addcmul. torch's fused scaled_dot_product_attention cannot be
used: it takes an additive mask only, and G multiplies the scores.
"""
import math
from typing import Sequence

import torch
from torch import nn

from .pytorch_gaussian_attention import EncoderLayer, direction_mask, gaussian_weights


class StackedLinear(nn.Module):
    """E nn.Linear layers of the same shape as one batched matmul.

    linears: the trained layers; their weights are copied (E, in, out), in
    the layers' dtype. forward: x (E, N, in) -> (E, N, out), x + bias in one
    torch.baddbmm (in bfloat16 oneDNN's AMX / AVX512-BF16 kernels).
    """

    def __init__(self, linears: Sequence[nn.Linear]):
        super().__init__()
        self.register_buffer("weight", torch.stack([layer.weight.detach().t() for layer in linears]).contiguous())
        self.register_buffer("bias", torch.stack([layer.bias.detach() for layer in linears])[:, None, :])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.baddbmm(self.bias, x, self.weight)


class StackedLayerNorm(nn.Module):
    """E nn.LayerNorm layers over the last axis: (E, ..., d) -> (E, ..., d)."""

    def __init__(self, norms: Sequence[nn.LayerNorm]):
        super().__init__()
        self.eps = norms[0].eps
        self.register_buffer("weight", torch.stack([norm.weight.detach() for norm in norms]))
        self.register_buffer("bias", torch.stack([norm.bias.detach() for norm in norms]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Shapes from the weights, not from x: a traced export keeps them constant.
        n_encoders, width = self.weight.shape
        shape = (n_encoders,) + (1,) * (x.dim() - 2) + (width,)
        normalised = torch.layer_norm(x, (width,), eps=self.eps)
        return torch.addcmul(self.bias.view(shape), normalised, self.weight.view(shape))


class AttentionFactors:
    """The per-length attention constants of E directional encoders, cached.

    scale(T): (T, T), G[i, j] / sqrt(d_head) (eq. 3; 1 / sqrt(d_head)
    without the Gaussian). bias(lengths, T): (E, B, 1, T, T), 0 where
    query i of sequence b may see key j in encoder e's direction (a real key,
    or i itself so padded rows never softmax over nothing), else -inf.
    The tables are computed once for the longest length seen and sliced, so
    the cache holds one (T_max, T_max) table per direction. Safe to share
    between threads: a longer table replaces the old one in one assignment.

    Both in ``dtype``.
    """

    def __init__(
        self,
        directions: Sequence[str],
        d_head: int,
        sigma: float,
        gaussian: bool,
        directional: bool,
        dtype: torch.dtype,
    ):
        self.dtype = dtype
        self.directions = [name if directional else "centre" for name in directions]
        self.d_head = d_head
        self.sigma = sigma
        self.gaussian = gaussian
        self._tables = (0, None, None)  # (length, scale, allowed by direction (E, T, T))

    def _table(self, length: int):
        cached = self._tables
        if cached[0] >= length:
            return cached
        if self.gaussian:
            scale = gaussian_weights(length, self.sigma) / math.sqrt(self.d_head)
        else:
            scale = torch.full((length, length), 1 / math.sqrt(self.d_head))
        allowed = torch.stack([direction_mask(length, name) for name in self.directions])
        self._tables = (length, scale.to(self.dtype), allowed)
        return self._tables

    def scale(self, length: int) -> torch.Tensor:
        return self._table(length)[1][:length, :length]

    def bias(self, lengths: torch.Tensor, length: int) -> torch.Tensor:
        directional = self._table(length)[2][:, :length, :length]  # (E, T, T)
        keys = torch.arange(length)[None, :] < lengths[:, None]  # (B, T)
        positions = torch.arange(length)
        itself = positions[:, None] == positions[None, :]  # (T, T); not torch.eye: ONNX has no bool EyeLike
        allowed = (directional[:, None] & keys[None, :, None, :]) | itself  # (E, B, T, T)
        bias = torch.zeros(allowed.shape, dtype=self.dtype).masked_fill_(~allowed, float("-inf"))
        return bias[:, :, None]


class StackedEncoderLayer(nn.Module):
    """E post-LayerNorm Gaussian directional layers (eq. 6) run together:
    x = LN(x + GMHA(x)); x = LN(x + W2 ReLU(W1 x)), no dropout (inference).

    layers: layer i of each encoder, in the order of the stacked streams.
    forward: x (E, B, T, d); scale (T, T) and bias (E, B, 1, T, T) from
    AttentionFactors. RETURNS (E, B, T, d). Everything in the layers' dtype.
    """

    def __init__(self, layers: Sequence[EncoderLayer]):
        super().__init__()
        self.n_heads = layers[0].attention.n_heads
        self.qkv = StackedLinear([layer.attention.qkv for layer in layers])
        self.output = StackedLinear([layer.attention.output for layer in layers])
        self.hidden = StackedLinear([layer.feed_forward[0] for layer in layers])
        self.hidden_output = StackedLinear([layer.feed_forward[3] for layer in layers])
        self.norm_attention = StackedLayerNorm([layer.norm_attention for layer in layers])
        self.norm_feed_forward = StackedLayerNorm([layer.norm_feed_forward for layer in layers])

    def forward(self, x: torch.Tensor, scale: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        n_encoders, batch, length, width = x.shape
        flat = x.view(n_encoders, batch * length, width)
        qkv = self.qkv(flat).view(n_encoders, batch, length, 3, self.n_heads, width // self.n_heads)
        q, k, v = qkv.permute(3, 0, 1, 4, 2, 5)  # each (E, B, h, T, d_head)
        scores = torch.addcmul(bias, torch.matmul(q, k.transpose(-1, -2)), scale)
        context = torch.matmul(torch.softmax(scores, dim=-1), v)  # (E, B, h, T, d_head)
        context = context.permute(0, 1, 3, 2, 4).reshape(n_encoders, batch * length, width)
        flat = self.norm_attention(flat + self.output(context))
        hidden = torch.relu_(self.hidden(flat))
        flat = self.norm_feed_forward(flat + self.hidden_output(hidden))
        return flat.view(n_encoders, batch, length, width)
