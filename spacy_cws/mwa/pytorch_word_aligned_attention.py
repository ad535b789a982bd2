"""Multi-source word-aligned attention (PyTorch).

Li et al., "Enhancing Pre-trained Chinese Character Representation with
Word-aligned Attention" (ACL 2020), section 2 (eq. 2-8), with the departures
of the released code listed in ../shared/spec/seed-models.md part C:

- one character-level self-attention A = softmax(Q K^T / sqrt(d_h)) per head,
  Q, K, V = ReLU(H W + b) (the paper has no ReLU: ``activation=False``), with
  padding keys masked (the released code does not mask them);
- for every segmentation source m, A is aligned to the words of m by mixed
  pooling with a trainable lambda_m (eq. 4) and piecewise upsampling (eq. 5),
  either over KEYS (the released code; default) or over ROWS (the paper);
- H_m = ReLU(concat_heads(A^_m V) W_o^m + b) with one W_o per source (eq. 6-7;
  the released code reused the first by mistake);
- fusion H~ = sum_m tanh(H_m W_g + b) with one shared W_g (eq. 8), optionally
  plus the raw encoder output H itself (``fuse_encoder``, the released code's
  extra term: a residual path);
- optionally (``output_norm``, our addition, default in the spaCy model) a
  LayerNorm on H~: the tanh sum has a small spread (per-dimension std ~0.4
  at initialisation), which made a downstream ``ner`` learn far more slowly
  than on a LayerNorm-ed encoder such as BERT.

Words are given as segment ids (word index of every position) and all pooling
is done with scatter operations: there is no loop over words or positions,
only over the (few) sources.
"""
import math
from typing import Optional

import torch
from torch import nn

POOLING_AXES = ("key", "row")


def validate_settings(input_width: int, n_heads: int, head_width: int, pooling: str) -> None:
    """Check a word-aligned attention configuration. RAISES ValueError naming the setting to fix."""
    if pooling not in POOLING_AXES:
        raise ValueError(f"pooling must be one of {POOLING_AXES}, got '{pooling}'")
    if n_heads < 1 or head_width < 1 or input_width < 1:
        raise ValueError(
            f"n_heads, head_width and input_width must be >= 1, got {n_heads}, {head_width}, {input_width}"
        )


def mixed_pool_keys(
    attention: torch.Tensor, segments: torch.Tensor, n_segments: int, lam: torch.Tensor
) -> torch.Tensor:
    """Key-axis mixed pooling with upsampling (the released code's reading of eq. 4-5).

    For every query q and word w: p = lam * max_{k in w} A[q, k] + (1 - lam) *
    mean_{k in w} A[q, k], and A^[q, k] = p for every key k in w.

    attention: (B, h, Tq, Tk) attention weights A.
    segments: int64 (B, Tk), the word id of every key, in [0, n_segments).
    lam: scalar tensor lambda.
    RETURNS (B, h, Tq, Tk) the aligned attention A^.
    """
    index = segments[:, None, None, :].expand_as(attention)
    shape = attention.shape[:-1] + (n_segments,)
    maxima = attention.new_full(shape, -math.inf).scatter_reduce(-1, index, attention, "amax", include_self=False)
    sums = attention.new_zeros(shape).scatter_add(-1, index, attention)
    counts = attention.new_zeros(segments.shape[0], n_segments).scatter_add(
        -1, segments, attention.new_ones(segments.shape)
    )[:, None, None, :]
    # Empty segments have max -inf: zero them so neither the output nor lambda's gradient sees inf.
    maxima = torch.where(counts > 0, maxima, torch.zeros_like(maxima))
    pooled = lam * maxima + (1.0 - lam) * sums / counts.clamp(min=1.0)
    return pooled.gather(-1, index)


def mixed_pool_rows(
    attention: torch.Tensor, segments: torch.Tensor, n_segments: int, lam: torch.Tensor
) -> torch.Tensor:
    """Row-axis mixed pooling with upsampling, as the paper writes eq. 4-5.

    For every word w: a_w = lam * max_{q in w} A[q, :] + (1 - lam) *
    mean_{q in w} A[q, :] (one attention row per word), and A^[q, :] = a_w for
    every query q in w (e_l (x) a_w).

    attention: (B, h, Tq, Tk); segments: int64 (B, Tq), the word id of every
    query. RETURNS (B, h, Tq, Tk).
    """
    return mixed_pool_keys(attention.transpose(-1, -2), segments, n_segments, lam).transpose(-1, -2)


class MultiSourceWordAlignedAttention(nn.Module):
    """MWA layer over a character encoder's output for M segmentation sources.

    input_width d: width of the encoder output H; n_heads h and head_width d_h
    (the paper: 12 x 64 over BERT's 768); width: output width of the fused H~
    (default d); n_sources M >= 1; pooling: "key" (released code) or "row"
    (paper); activation: ReLU on the Q, K, V and per-source output projections
    (released code) or none (paper); fuse_encoder: add the raw encoder output
    H to the fusion sum, as the released code does (then width must be d);
    lambda_init: initial lambda of every source (0.5).
    """

    def __init__(
        self,
        input_width: int,
        n_sources: int,
        *,
        width: Optional[int] = None,
        n_heads: int = 4,
        head_width: Optional[int] = None,
        pooling: str = "key",
        activation: bool = True,
        fuse_encoder: bool = False,
        lambda_init: float = 0.5,
        dropout: float = 0.0,
        attention_dropout: float = 0.0,
        output_norm: bool = False,
    ):
        super().__init__()
        head_width = head_width or max(1, input_width // n_heads)
        validate_settings(input_width, n_heads, head_width, pooling)
        if n_sources < 1:
            raise ValueError(f"word-aligned attention needs at least one segmentation source, got {n_sources}")
        width = width or input_width
        if fuse_encoder and width != input_width:
            raise ValueError(
                f"fuse_encoder adds the encoder output (width {input_width}) to the fused vectors, "
                f"so the MWA width must be {input_width}, not {width}"
            )
        inner = n_heads * head_width
        self.n_heads = n_heads
        self.head_width = head_width
        self.pooling = pooling
        self.fuse_encoder = fuse_encoder
        self.query = nn.Linear(input_width, inner)
        self.key = nn.Linear(input_width, inner)
        self.value = nn.Linear(input_width, inner)
        self.lambdas = nn.Parameter(torch.full((n_sources,), float(lambda_init)))
        self.outputs = nn.ModuleList(nn.Linear(inner, input_width) for _ in range(n_sources))
        self.gate = nn.Linear(input_width, width)
        self.activation = nn.ReLU() if activation else nn.Identity()
        self.output_norm = nn.LayerNorm(width) if output_norm else nn.Identity()
        self.attention_dropout = nn.Dropout(attention_dropout)
        self.dropout = nn.Dropout(dropout)

    @property
    def n_sources(self) -> int:
        return len(self.outputs)

    def _split_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, _ = x.shape
        return x.view(batch, length, self.n_heads, self.head_width).transpose(1, 2)

    def attention(self, hidden: torch.Tensor, mask: torch.Tensor):
        """Eq. 2: A = softmax(Q K^T / sqrt(d_h)) per head, padding keys masked.

        hidden: (B, T, d); mask: bool (B, T), True at real positions.
        RETURNS A (B, h, T, T) and V (B, h, T, d_h).
        """
        query = self._split_heads(self.activation(self.query(hidden)))
        key = self._split_heads(self.activation(self.key(hidden)))
        value = self._split_heads(self.activation(self.value(hidden)))
        scores = query @ key.transpose(-1, -2) / math.sqrt(self.head_width)
        scores = scores.masked_fill(~mask[:, None, None, :], -math.inf)
        return torch.softmax(scores, dim=-1), value

    def align(self, attention: torch.Tensor, segments: torch.Tensor, n_segments: int, source: int) -> torch.Tensor:
        """Eq. 4-5 for source ``source``: A^ (B, h, T, T) from A and the source's segment ids (B, T)."""
        pool = mixed_pool_keys if self.pooling == "key" else mixed_pool_rows
        return pool(attention, segments, n_segments, self.lambdas[source])

    def forward(self, hidden: torch.Tensor, segments: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """hidden: (B, T, d) encoder output H; segments: int64 (M, B, T), per
        source the word index of every position within its row (values at
        padding are ignored); mask: bool (B, T), True at real positions (every
        row must have at least one).
        RETURNS (B, T, width) the fused H~ (eq. 8), layer-normalised with
        output_norm; rows at padding are zero.
        """
        if segments.shape[0] != self.n_sources:
            raise ValueError(f"expected segment ids for {self.n_sources} sources, got {segments.shape[0]}")
        batch, length, _ = hidden.shape
        attention, value = self.attention(hidden, mask)
        attention = self.attention_dropout(attention)
        # Padding gets its own segment (id n_segments - 1), so it never mixes with a word.
        n_segments = int(segments.max()) + 2 if segments.numel() else 1
        segments = torch.where(mask[None], segments, torch.full_like(segments, n_segments - 1))
        # The released code adds the raw encoder output H as one more term (a residual path).
        fused = hidden if self.fuse_encoder else hidden.new_zeros(())
        for source in range(self.n_sources):
            aligned = self.align(attention, segments[source], n_segments, source)
            heads = (aligned @ value).transpose(1, 2).reshape(batch, length, -1)  # (B, T, h * d_h)
            fused = fused + torch.tanh(self.gate(self.activation(self.outputs[source](heads))))
        return self.dropout(self.output_norm(fused)) * mask[..., None].to(fused.dtype)
