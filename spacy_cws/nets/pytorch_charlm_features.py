"""Contextual character features from a frozen character LM (PyTorch).

Gan & Zhang (2020, section 4.1) feed each character's BERT vector, the top
layer's output over the whole sentence, into the segmenter in place of its
word2vec character embedding. Here the LM is our own masked character LM
(``pretrain-charlm``, a BERT of transformers), kept frozen (the paper's
"feature-based" use; it fine-tunes instead, which the 2 cores here cannot
afford), and the mean of its last ``layers`` layers, projected to the model
width, is added to each position's input vector beside the unigram
embedding.
"""
from pathlib import Path

import torch
from torch import nn

from ..features.symbol_specials import BOS, EOS, PAD
from .charlm_symbols import charlm_folder, lm_token_ids, read_vocab


def _bert_model(folder: Path, load_weights: bool) -> nn.Module:
    """The LM's encoder (BertModel, no pooler), with its trained weights when
    ``load_weights`` (a module built empty for saved weights skips them).
    RAISES ImportError: without transformers, naming the extra."""
    try:
        from transformers import BertConfig, BertModel
    except ImportError as err:
        raise ImportError(
            f"Character LM features need transformers: pip install 'spacy-cws[train,charlm]' ({err})"
        ) from None
    if not load_weights:
        return BertModel(BertConfig.from_pretrained(str(folder)), add_pooling_layer=False)
    return BertModel.from_pretrained(str(folder), add_pooling_layer=False)


class CharLMFeatures(nn.Module):
    """Per position the frozen LM's vector of the sequence's characters, projected to ``width``.

    path: the LM folder (charlm_symbols.charlm_folder).
    symbols: the segmenter's symbol vocabulary (unigram id = index + 4).
    width: the model's input width.
    layers: how many of the LM's last layers are averaged (1 = the top one, as the paper).
    The LM's weights and the symbol-to-token map (``lm_ids``, (V,)) are saved
    with the model's weights like any other; only ``projection`` learns.
    RAISES ValueError: for a folder that holds no LM, or layers outside 1..the LM's depth;
        ImportError: without transformers.
    """

    def __init__(self, path: str, symbols: str, width: int, layers: int = 1):
        super().__init__()
        folder = charlm_folder(path)
        on_meta = torch.empty(0).device.type == "meta"  # built empty, its saved weights follow
        self.encoder = _bert_model(folder, load_weights=not on_meta)
        depth = self.encoder.config.num_hidden_layers
        if not 1 <= layers <= depth:
            raise ValueError(f"charlm_layers must be between 1 and the LM's {depth} layers, got {layers}")
        self.layers = layers
        self.max_positions = self.encoder.config.max_position_embeddings
        # Position and segment ids are passed to the encoder in forward: its
        # unsaved buffers for them would stay uninitialized in a module built
        # empty for saved weights (module_weights.build_module).
        for name in ("position_ids", "token_type_ids"):
            self.encoder.embeddings._buffers.pop(name, None)
        self.encoder.requires_grad_(False)
        self.register_buffer("lm_ids", torch.from_numpy(lm_token_ids(symbols, read_vocab(folder))))
        self.projection = nn.Linear(self.encoder.config.hidden_size, width)

    def train(self, mode: bool = True) -> "CharLMFeatures":
        """The projection follows ``mode``; the frozen LM stays in eval mode (no dropout)."""
        super().train(mode)
        self.encoder.eval()
        return self

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """ids: int64 (B, T), BOS + symbols + EOS + PAD (unigram ids); lengths:
        int64 (B,), T_b including BOS and EOS. RETURNS float (B, T, width) (the
        positions past T_b are padding, masked out of the LM's attention; the
        LM reads the columns up to the longest T_b, the rest get zeros).
        RAISES ValueError: for a T_b above the LM's positions (a segmenter's
            max_length must then be at most that minus 2)."""
        length = ids.shape[1]
        used = int(lengths.max()) if len(lengths) else 0
        if used > self.max_positions:
            raise ValueError(
                f"The character LM reads at most {self.max_positions} positions, got a sequence of {used}: "
                f"set the segmenter's max_length to {self.max_positions - 2} or less"
            )
        ids = ids[:, :used]
        positions = torch.arange(used, device=ids.device)
        with torch.no_grad():
            hidden = self.encoder(
                input_ids=self.lm_ids[ids],
                attention_mask=(positions[None, :] < lengths[:, None]).long(),
                position_ids=positions[None, :].expand_as(ids),
                token_type_ids=torch.zeros_like(ids),
                output_hidden_states=self.layers > 1,
            )
            states = hidden.hidden_states[-self.layers:] if self.layers > 1 else (hidden.last_hidden_state,)
            features = torch.stack(states).mean(0)
        projected = self.projection(features.to(self.projection.weight.dtype))
        return nn.functional.pad(projected, (0, 0, 0, length - used))

    def without_edges(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """``forward`` for a model whose sequences carry no BOS and EOS (the
        BMES tagger): the LM still reads each between [CLS] and [SEP].
        ids: int64 (B, T), symbols + PAD; lengths: int64 (B,), T_b.
        RETURNS float (B, T, width). RAISES ValueError: as forward, for T + 2
        above the LM's positions."""
        edged = nn.functional.pad(ids, (1, 1), value=PAD)
        edged[:, 0] = BOS
        edged[torch.arange(ids.shape[0], device=ids.device), lengths + 1] = EOS
        return self(edged, lengths + 2)[:, 1:-1]
