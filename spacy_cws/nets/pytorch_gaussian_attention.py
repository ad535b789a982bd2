"""Gaussian-masked directional multi-head attention and its encoder (PyTorch).

Duan & Zhao, "Attention Is All You Need for Chinese Word Segmentation"
(EMNLP 2020), section 3.2, eq. (2)-(6). Details the paper leaves open follow
../shared/spec/seed-models.md A2.
"""
import math
from typing import Optional

import torch
from torch import nn

from .architecture_settings import DIRECTIONS
from .dropout import AttentionDropout


def gaussian_weights(length: int, sigma: float, device=None) -> torch.Tensor:
    """The Gaussian weight matrix G[i, j] = 2 * Phi(-|i - j| / sigma) (eq. 3).

    Phi is the standard normal CDF, so G = 1 on the diagonal and falls with
    distance (sigma=4: 1, .80, .62, .45, .32 at distances 0-4).

    length: sequence length T. sigma: standard deviation in positions (> 0).
    RETURNS: float32 tensor (T, T).
    """
    positions = torch.arange(length, device=device, dtype=torch.float32)
    distance = (positions[:, None] - positions[None, :]).abs()
    # 2 * Phi(-x) = erfc(x / sqrt(2))
    return torch.erfc(distance / (sigma * math.sqrt(2.0)))


def direction_mask(length: int, direction: str, device=None) -> torch.Tensor:
    """Which keys each query may see (eq. 5): bool (T, T), [query, key].

    "forward": keys j <= i; "backward": keys j >= i; "centre": all keys.
    RAISES ValueError: for another direction.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got '{direction}'")
    ones = torch.ones(length, length, dtype=torch.bool, device=device)
    if direction == "forward":
        return torch.tril(ones)
    if direction == "backward":
        return torch.triu(ones)
    return ones


class GaussianDirectionalAttention(nn.Module):
    """Multi-head self-attention weighted by G and masked by direction (eq. 2-4).

    Scores S = (Q K^T / sqrt(d_head)) * G, then masked keys get -inf, then
    softmax: the clean order of ../shared/spec/seed-models.md A2.
    """

    def __init__(self, width: int, n_heads: int, attention_dropout: float):
        super().__init__()
        if width % n_heads:
            raise ValueError(f"width {width} is not divisible by n_heads {n_heads}")
        self.n_heads = n_heads
        self.d_head = width // n_heads
        self.qkv = nn.Linear(width, 3 * width)
        self.output = nn.Linear(width, width)
        # Dropout on the (B, h, T, T) attention weights; 0 skips it (its random
        # numbers cost a fifth of a CPU training step).
        self.dropout = AttentionDropout(attention_dropout) if attention_dropout > 0 else nn.Identity()

    def forward(self, x: torch.Tensor, allowed: torch.Tensor, gauss: Optional[torch.Tensor]) -> torch.Tensor:
        """x: (B, T, d); allowed: bool (B, 1, T, T) [query, key]; gauss: (T, T) or None.
        RETURNS: (B, T, d)."""
        batch, length, width = x.shape
        q, k, v = self.qkv(x).view(batch, length, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_head)
        if gauss is not None:
            scores = scores * gauss
        scores = scores.masked_fill(~allowed, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.matmul(weights, v).transpose(1, 2).reshape(batch, length, width)
        return self.output(context)


class EncoderLayer(nn.Module):
    """Post-LayerNorm Transformer layer with Gaussian directional attention (eq. 6):
    x = LN(x + Drop(GMHA(x))); x = LN(x + Drop(W2 Drop(ReLU(W1 x))))."""

    def __init__(self, width: int, n_heads: int, ff_width: int, dropout: float, attention_dropout: float):
        super().__init__()
        self.attention = GaussianDirectionalAttention(width, n_heads, attention_dropout)
        self.feed_forward = nn.Sequential(
            nn.Linear(width, ff_width), nn.ReLU(), nn.Dropout(dropout), nn.Linear(ff_width, width)
        )
        self.norm_attention = nn.LayerNorm(width, eps=1e-6)
        self.norm_feed_forward = nn.LayerNorm(width, eps=1e-6)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, allowed: torch.Tensor, gauss: Optional[torch.Tensor]) -> torch.Tensor:
        """x: (B, T, d) -> (B, T, d)."""
        x = self.norm_attention(x + self.dropout(self.attention(x, allowed, gauss)))
        return self.norm_feed_forward(x + self.dropout(self.feed_forward(x)))


class DirectionalEncoder(nn.Module):
    """A stack of layers with one direction (centre, forward or backward).

    Layers can be run in two parts (``start``/``stop``) so HiRED can act between them.
    """

    def __init__(
        self,
        direction: str,
        depth: int,
        width: int,
        n_heads: int,
        ff_width: int,
        dropout: float,
        attention_dropout: float,
    ):
        super().__init__()
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, got '{direction}'")
        self.direction = direction
        self.layers = nn.ModuleList(
            EncoderLayer(width, n_heads, ff_width, dropout, attention_dropout) for _ in range(depth)
        )

    def forward(
        self,
        x: torch.Tensor,
        allowed: torch.Tensor,
        gauss: Optional[torch.Tensor],
        start: int = 0,
        stop: Optional[int] = None,
    ) -> torch.Tensor:
        """Run layers [start, stop). x: (B, T, d) -> (B, T, d)."""
        for layer in self.layers[start:stop]:
            x = layer(x, allowed, gauss)
        return x
