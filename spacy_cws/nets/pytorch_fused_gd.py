"""The GD-Transformer for inference: its encoders stacked, HiRED pooling by matmul.

Same outputs as GDTransformer in eval mode (Duan & Zhao, EMNLP 2020; see
pytorch_gd_transformer.py), from the same saved weights: ``prepare`` builds
stacked copies of the centre/forward/backward encoders (pytorch_stacked_encoders.py)
and of the HiRED word pooling, then drops the per-encoder modules. The input
embeddings and the gap scoring heads are GDTransformer's own. Never trained:
build it with segmentation models' ``inference_module`` (nets/inference.py).
"""
from typing import Dict, Optional

import torch

from .pytorch_gd_transformer import GDTransformer
from .pytorch_stacked_encoders import AttentionFactors, StackedEncoderLayer, StackedLayerNorm, StackedLinear


class FusedGDTransformer(GDTransformer):
    """GDTransformer whose streams are one tensor (E, B, T, d), E the encoders
    in ``self.directions`` order. Construct it with GDTransformer's arguments,
    load the trained state dict, cast it to the inference dtype, then call
    ``prepare()``; it computes in its weights' dtype."""

    def prepare(self) -> None:
        """Stack the encoders' and poolings' weights and drop the per-encoder
        modules. Call once, after load_state_dict and the cast."""
        encoders = [self.encoders[f"{name}_encoder"] for name in self.directions]
        first = encoders[0].layers[0].attention
        self.stacked_layers = torch.nn.ModuleList(
            StackedEncoderLayer([encoder.layers[i] for encoder in encoders]) for i in range(len(encoders[0].layers))
        )
        self.factors = AttentionFactors(
            self.directions, first.d_head, self.sigma, self.gaussian, self.directional, first.qkv.weight.dtype
        )
        del self.encoders
        self.stacked_criterion_layers = torch.nn.ModuleList(
            StackedEncoderLayer([layers[f"{name}_encoder"] for name in self.directions])
            for layers in self.criterion_layers
        )
        del self.criterion_layers
        if self.hired:
            poolings = [self.pooling[f"{name}_pooling"] for name in self.directions]
            self.pool_word = StackedLinear([pooling.word for pooling in poolings])
            self.pool_label = StackedLinear([pooling.label for pooling in poolings])
            self.pool_norm = StackedLayerNorm([pooling.norm for pooling in poolings])
            del self.pooling

    def _attention_masks(self, lengths: torch.Tensor, length: int):
        """The (T, T) scale and (E, B, 1, T, T) bias of AttentionFactors, once per batch."""
        return self.factors.scale(length), self.factors.bias(lengths, length)

    def _start_streams(self, embedded: torch.Tensor) -> torch.Tensor:
        return embedded.to(self.factors.dtype)[None].expand(len(self.directions), -1, -1, -1).contiguous()

    def _run_layers(self, streams: torch.Tensor, masks, start: int, stop: Optional[int]) -> torch.Tensor:
        scale, bias = masks
        for layer in self.stacked_layers[start:stop]:
            streams = layer(streams, scale, bias)
        return streams

    def _own_top_layers(self):
        return self.stacked_criterion_layers

    @staticmethod
    def _run_own_layer(layer: StackedEncoderLayer, streams: torch.Tensor, masks) -> torch.Tensor:
        scale, bias = masks
        return layer(streams, scale, bias)

    @staticmethod
    def _where(rows: torch.Tensor, own: torch.Tensor, shared: torch.Tensor) -> torch.Tensor:
        return torch.where(rows[None, :, None, None], own, shared)

    def _pool(self, streams: torch.Tensor, word_ids: torch.Tensor, real_early: torch.Tensor, embedded: torch.Tensor):
        """WordPooling of every stream at once: each position's word sum is a
        (B, T, T) same-word matrix times the streams (no index_add_), then
        x + W_word(sum) + W_label([E_right; E_left]), LayerNorm, Highway-I."""
        n_encoders, batch, length, width = streams.shape
        same_word = (word_ids[:, :, None] == word_ids[:, None, :]).to(streams.dtype)  # (B, T, T)
        word_sums = torch.matmul(same_word, streams)  # (E, B, T, d)
        edge = real_early.new_zeros(batch, 1, real_early.shape[-1])
        labels = torch.cat([torch.cat([real_early, edge], dim=1), torch.cat([edge, real_early], dim=1)], dim=-1)
        labels = labels.to(streams.dtype).reshape(1, batch * length, -1).expand(n_encoders, -1, -1)
        flat = streams.view(n_encoders, batch * length, width)
        flat = flat + self.pool_word(word_sums.view(n_encoders, batch * length, width)) + self.pool_label(labels)
        pooled = self.pool_norm(flat).view(n_encoders, batch, length, width)
        return pooled + embedded.to(pooled.dtype) if self.highway_input else pooled

    def _named_streams(self, streams: torch.Tensor) -> Dict[str, torch.Tensor]:
        return dict(zip(self.directions, streams))
