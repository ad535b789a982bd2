"""A small character encoder trained from scratch (PyTorch): the built-in
encoder under the MWA layer where no pre-trained model is wanted.

Every character is embedded by two hashed rows of one table (so there is no
vocabulary to learn or store: unseen characters still get a vector), plus a
learned position embedding, then residual convolutions over a window of
characters on each side (local context, as spaCy's HashEmbedCNN) and a few
pre-norm Transformer encoder layers.
Small and CPU-friendly; it stands in for the paper's BERT.
"""
import math

import numpy
import torch
from torch import nn

N_HASHES = 2
_MULTIPLIERS = numpy.array([2654435761, 2246822519], dtype=numpy.uint64)
_OFFSETS = numpy.array([0, 3266489917], dtype=numpy.uint64)


def hash_characters(text: str, n_rows: int) -> numpy.ndarray:
    """Two hashed embedding rows per character of ``text``: int64 (len(text), 2)."""
    codepoints = numpy.frombuffer(text.encode("utf-32-le"), dtype=numpy.uint32).astype(numpy.uint64)
    mixed = (codepoints[:, None] + _OFFSETS) * _MULTIPLIERS  # wraps modulo 2**64
    return ((mixed >> numpy.uint64(16)) % numpy.uint64(n_rows)).astype(numpy.int64)


class CharacterEncoder(nn.Module):
    """Hashed character embeddings + positions + ``depth`` Transformer layers.

    n_rows: rows of the hashed embedding table; width d; depth: Transformer
    layers; n_heads; ff_width; max_length: most characters in one sequence;
    conv_depth: residual convolution blocks of kernel 2 * window_size + 1
    (0 and depth 0: embeddings only).
    """

    def __init__(
        self,
        n_rows: int,
        width: int,
        depth: int,
        n_heads: int,
        ff_width: int,
        max_length: int,
        dropout: float = 0.1,
        conv_depth: int = 1,
        window_size: int = 1,
    ):
        super().__init__()
        if width % n_heads:
            raise ValueError(f"width {width} is not divisible by n_heads {n_heads}")
        self.embed = nn.Embedding(n_rows, width)
        self.position = nn.Embedding(max_length, width)
        self.norm = nn.LayerNorm(width)
        self.dropout = nn.Dropout(dropout)
        nn.init.normal_(self.embed.weight, std=1.0 / math.sqrt(width))
        nn.init.normal_(self.position.weight, std=0.02)
        self.convs = nn.ModuleList(
            nn.Conv1d(width, width, 2 * window_size + 1, padding=window_size) for _ in range(conv_depth)
        )
        self.conv_norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(conv_depth))
        layer = nn.TransformerEncoderLayer(
            width, n_heads, ff_width, dropout=dropout, batch_first=True, norm_first=True
        )
        self.layers = (
            nn.TransformerEncoder(layer, depth, enable_nested_tensor=False) if depth > 0 else None
        )
        self.final_norm = nn.LayerNorm(width) if depth > 0 else nn.Identity()

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """ids: int64 (B, T, 2) hashed rows per character (T <= max_length);
        mask: bool (B, T), True at real characters. RETURNS (B, T, d)."""
        positions = torch.arange(ids.shape[1], device=ids.device)
        hidden = self.embed(ids).sum(dim=2) + self.position(positions)[None]
        hidden = self.dropout(self.norm(hidden))
        keep = mask[..., None].to(hidden.dtype)
        for conv, norm in zip(self.convs, self.conv_norms):
            # Padding is zero before every convolution, so a sequence never sees its padding.
            local = conv((hidden * keep).transpose(1, 2)).transpose(1, 2)
            hidden = norm(hidden + self.dropout(torch.nn.functional.gelu(local)))
        if self.layers is not None:
            hidden = self.final_norm(self.layers(hidden, src_key_padding_mask=~mask))
        return hidden * keep
