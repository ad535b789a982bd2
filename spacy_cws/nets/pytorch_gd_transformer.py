"""The Gaussian-masked Directional Transformer with HiRED highways (PyTorch).

Duan & Zhao, "Attention Is All You Need for Chinese Word Segmentation"
(EMNLP 2020): embeddings (section 3.1), centre/forward/backward encoders with
Gaussian-masked directional attention (3.2, eq. 2-6), fusion and biaffine gap
scoring (3.3, eq. 7-9), greedy decoding, and the HiRED highways Highway-I and
Highway-O (section 4). Where the paper is vague this follows
../shared/spec/seed-models.md A2. Every part can be switched off, so each
ablation of Tables 7-9 is a configuration change.
"""
import math
from typing import Dict, Optional, Sequence

import torch
from torch import nn

from ..features.symbol_specials import PAD
from .pytorch_biaffine import N_GAP_CLASSES, GapScoringHead
from .pytorch_gaussian_attention import DirectionalEncoder, EncoderLayer, direction_mask, gaussian_weights
from .architecture_settings import validate_settings  # checked without torch
from .lookup_table import LookupTable
from .pytorch_input_features import LexiconAndTrigramInput



def sinusoidal_positions(length: int, width: int, device=None) -> torch.Tensor:
    """Sinusoidal position encoding (Vaswani et al. 2017): (T, d)."""
    position = torch.arange(length, dtype=torch.float32, device=device)[:, None]
    rate = torch.exp(torch.arange(0, width, 2, dtype=torch.float32, device=device) * (-math.log(10000.0) / width))
    table = torch.zeros(length, width, device=device)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate[: width // 2])
    return table


class WordPooling(nn.Module):
    """HiRED word pooling for one stream: x' = x + Drop(W sum_{c in word(x)} x_c) + W_l [E_right; E_left].

    The words come from the model's own early gap prediction (no gold, even in
    training) and no gradient flows through that argmax. The label feature adds,
    for position t, the early logits of the gaps on its right and left.
    """

    def __init__(self, width: int, dropout: float):
        super().__init__()
        self.word = nn.Linear(width, width)
        self.label = nn.Linear(2 * N_GAP_CLASSES, width)
        self.dropout = nn.Dropout(dropout)
        self.norm = nn.LayerNorm(width, eps=1e-6)

    def forward(self, x: torch.Tensor, word_ids: torch.Tensor, gap_logits: torch.Tensor) -> torch.Tensor:
        """x: (B, T, d); word_ids: int64 (B, T), word index of each position within
        its row; gap_logits: (B, T - 1, 2). RETURNS (B, T, d), layer-normalised."""
        batch, length, width = x.shape
        flat_ids = (word_ids + torch.arange(batch, device=x.device)[:, None] * length).reshape(-1)
        sums = torch.zeros(batch * length, width, dtype=x.dtype, device=x.device)
        sums.index_add_(0, flat_ids, x.reshape(-1, width))
        word_sums = sums[flat_ids].view(batch, length, width)
        edge = gap_logits.new_zeros(batch, 1, N_GAP_CLASSES)
        right = torch.cat([gap_logits, edge], dim=1)  # gap (t, t+1)
        left = torch.cat([edge, gap_logits], dim=1)  # gap (t-1, t)
        x = x + self.dropout(self.word(word_sums)) + self.label(torch.cat([right, left], dim=-1))
        return self.norm(x)


class GDTransformer(nn.Module):
    """GD-Transformer gap scorer.

    n_symbols: vocabulary size including the 4 specials (PAD, UNK, BOS, EOS).
    n_bigrams: bigram vocabulary size including the specials (used only when
        bigram_width > 0).
    n_criteria: how many segmentation criteria (corpora) the model serves; 0 =
        one criterion, no criterion embedding. Otherwise a criterion embedding
        (Qiu et al. 2020, section 3) is added to every position's input: in a
        Gaussian-masked directional encoder a token prepended at position 0
        would be far from, or invisible to (backward encoder), most positions.
    bigram_width: width of the bigram embedding table; 0 = unigrams only (the
        paper). Otherwise each position's embedding adds FC([e_bi(c[t-1]c[t]);
        e_bi(c[t]c[t+1])]) to the unigram's, as Qiu et al. 2020 eq. 13.
    n_lexicon_bits, trigram_width, trigram_rows, word_slots, word_width,
        word_rows: lexicon flags, hashed trigrams and the word-POS attention of
        Gan & Zhang 2020 added to each position's embedding (LexiconAndTrigramInput;
        0 = none, the paper's model).
    criterion_heads: the ids of the criteria that score gaps with gap
        scoring heads of their own (an early one too with HiRED), in the
        order of the heads; the others share the model's heads. A criterion
        learned later from a few gold sentences gets its own, with everything
        the other criteria use frozen, so they segment as before
        (adaptation/few_shot.py). Empty: every criterion shares the heads.
    criterion_layers: the ids of the criteria that also run the top layer
        of every encoder as a copy of their own (in the order of the
        copies): what a criterion learned from gold sentences learns inside
        the encoders while the other criteria compute as before. Empty: every
        criterion shares the layers.
    charlm_path: a character LM folder (``pretrain-charlm``) whose frozen
        vectors of the sequence, the mean of its last ``charlm_layers``
        layers, projected, are added to each position's embedding (Gan &
        Zhang 2020 section 4.1; pytorch_charlm_features.py); "" = none.
    symbols: the symbol vocabulary the unigram ids index (id = index + 4),
        mapped to the LM's tokens; used only with charlm_path.
    width, depth, n_heads, ff_width, dropout: Table 4 hyperparameters (depth
        is layers per encoder).
    attention_dropout: dropout on the attention weights (0 = none).
    sigma: Gaussian standard deviation in positions; gaussian=False uses G = 1.
    directional: False lets the forward and backward encoders see every key.
    encoders: which of "centre", "forward", "backward" exist.
    fusion: "gate" (the released code) or "sum" (the paper's text).
    position: "none" (what produced the paper's numbers) or "sinusoidal".
    hired: early gap scoring and word pooling after layer depth // 2.
    highway_input: add the embedding output back after the HiRED step (Highway-I).
    highway_output: return the early logits as a second head for a second loss
        (Highway-O); needs hired.
    """

    def __init__(
        self,
        n_symbols: int,
        n_bigrams: int,
        n_criteria: int,
        width: int,
        depth: int,
        n_heads: int,
        ff_width: int,
        dropout: float,
        attention_dropout: float,
        sigma: float,
        gaussian: bool,
        directional: bool,
        encoders: Sequence[str],
        fusion: str,
        position: str,
        hired: bool,
        highway_input: bool,
        highway_output: bool,
        bigram_width: int = 0,
        n_lexicon_bits: int = 0,
        trigram_width: int = 0,
        trigram_rows: int = 0,
        word_slots: int = 0,
        word_width: int = 0,
        word_rows: int = 0,
        criterion_heads: Sequence[int] = (),
        criterion_layers: Sequence[int] = (),
        charlm_path: str = "",
        charlm_layers: int = 1,
        symbols: str = "",
    ):
        super().__init__()
        if bigram_width < 0 or n_criteria < 0:
            raise ValueError(f"bigram_width and n_criteria must be >= 0, got {bigram_width}, {n_criteria}")
        for setting, ids in (("criterion_heads", criterion_heads), ("criterion_layers", criterion_layers)):
            if any(not 0 <= criterion < n_criteria for criterion in ids):
                raise ValueError(f"{setting} must be criterion ids below n_criteria = {n_criteria}, got {ids}")
        encoders = list(encoders)
        validate_settings(width, depth, n_heads, encoders, fusion, position, hired, highway_input, highway_output)
        self.width = width
        self.sigma = sigma
        self.gaussian = gaussian
        self.directional = directional
        self.position = position
        self.hired = hired
        self.highway_input = highway_input
        self.highway_output = highway_output
        self.depth = depth
        self.split = depth // 2 if hired else depth
        self.embedding = nn.Embedding(n_symbols, width, padding_idx=PAD)
        self.bigram_width = bigram_width
        if bigram_width:
            self.bigram_embedding = LookupTable(n_bigrams, bigram_width, padding_idx=PAD)
            self.bigram_projection = nn.Linear(2 * bigram_width, width)
        self.n_criteria = n_criteria
        if n_criteria:
            self.criterion_embedding = nn.Embedding(n_criteria, width)
        self.extra_input = LexiconAndTrigramInput(
            n_lexicon_bits, trigram_width, trigram_rows, width, word_slots, word_width, word_rows
        )
        self.charlm = None
        if charlm_path:
            from .pytorch_charlm_features import CharLMFeatures  # transformers: only for a model with an LM

            self.charlm = CharLMFeatures(charlm_path, symbols, width, charlm_layers)
        self.embedding_dropout = nn.Dropout(dropout)
        # nn.ModuleDict keys may not be "forward" (a Module attribute): key by direction + "_encoder".
        self.directions = encoders
        self.encoders = nn.ModuleDict(
            {f"{name}_encoder": DirectionalEncoder(name, depth, width, n_heads, ff_width, dropout, attention_dropout)
                for name in encoders}
        )
        # A criterion's own top layers, keyed as self.encoders: {direction}_encoder.
        self.criterion_layer_ids = [int(criterion) for criterion in criterion_layers]
        self.criterion_layers = nn.ModuleList(
            nn.ModuleDict(
                {f"{name}_encoder": EncoderLayer(width, n_heads, ff_width, dropout, attention_dropout)
                    for name in encoders}
            )
            for _ in criterion_layers
        )
        self.head = GapScoringHead(width, fusion, dropout)
        self.criterion_head_ids = [int(criterion) for criterion in criterion_heads]
        self.criterion_heads = nn.ModuleList(GapScoringHead(width, fusion, dropout) for _ in criterion_heads)
        if hired:
            self.early_head = GapScoringHead(width, fusion, dropout)
            self.criterion_early_heads = nn.ModuleList(
                GapScoringHead(width, fusion, dropout) for _ in criterion_heads
            )
            self.pooling = nn.ModuleDict({f"{name}_pooling": WordPooling(width, dropout) for name in encoders})

    @property
    def n_heads_out(self) -> int:
        """How many gap-logit heads forward() returns (2 with Highway-O)."""
        return 2 if self.highway_output else 1

    def _allowed(self, lengths: torch.Tensor, length: int, direction: str) -> torch.Tensor:
        """bool (B, 1, T, T): real keys in the direction, plus each position itself
        (so padded rows never softmax over nothing)."""
        device = lengths.device
        keys = torch.arange(length, device=device)[None, :] < lengths[:, None]  # (B, T)
        allowed = keys[:, None, None, :]
        if self.directional:
            allowed = allowed & direction_mask(length, direction, device)
        eye = torch.eye(length, dtype=torch.bool, device=device)
        return allowed | eye

    def forward(
        self,
        ids: torch.Tensor,
        lengths: torch.Tensor,
        bigrams: torch.Tensor,
        criteria: torch.Tensor,
        extras: torch.Tensor,
    ) -> torch.Tensor:
        """ids: int64 (B, T), BOS + symbols + EOS + PAD; lengths: int64 (B,), T_b
        including BOS and EOS; bigrams: int64 (B, T, 2), each position's left and
        right bigram ids (PAD at BOS, EOS and padding; ignored when
        bigram_width = 0); criteria: int64 (B,), each sequence's criterion id
        (ignored when n_criteria = 0); extras: int64 (B, T, 7 + word_slots), lexicon flags
        and trigram hashes, then word slots (0 at BOS, EOS and padding; see
        LexiconAndTrigramInput). RETURNS gap logits (H, B, T - 1, 2), H =
        n_heads_out, head 0 the final scorer; gap g lies between positions g, g+1."""
        length = ids.shape[1]
        x = self.embedding(ids)
        if self.bigram_width:
            x = x + self.bigram_projection(self.bigram_embedding(bigrams).flatten(-2))
        if self.n_criteria:
            x = x + self.criterion_embedding(criteria)[:, None, :]
        if self.extra_input.active:
            x = x + self.extra_input(extras, x)
        if self.charlm is not None:
            x = x + self.charlm(ids, lengths)
        x = x * math.sqrt(self.width)
        if self.position == "sinusoidal":
            x = x + sinusoidal_positions(length, self.width, ids.device)
        embedded = self.embedding_dropout(x)
        return self.encode(embedded, lengths, criteria)

    def encode(self, embedded: torch.Tensor, lengths: torch.Tensor, criteria: torch.Tensor) -> torch.Tensor:
        """Everything after the input embeddings: the encoders, HiRED and the
        gap scorers. embedded: (B, T, d); lengths, criteria: int64 (B,).
        RETURNS gap logits (H, B, T - 1, 2) as forward.

        The streams' representation and how layers run on them are hooks
        (_attention_masks, _start_streams, _run_layers, _pool, _named_streams),
        so that FusedGDTransformer (pytorch_fused_gd.py) runs the same steps
        with the encoders stacked into one batched computation.
        """
        masks = self._attention_masks(lengths, embedded.shape[1])
        # With criteria of their own top layers, the shared stack stops below the top layer.
        shared_top = self.depth - 1 if self.criterion_layer_ids else self.depth
        streams = self._run_layers(self._start_streams(embedded), masks, 0, min(self.split, shared_top))
        heads = []
        if self.hired:
            early = self._gap_logits(self.early_head, self.criterion_early_heads, streams, criteria)
            word_ids = self._early_word_ids(early.detach(), lengths)
            # Gaps past EOS (EOS|PAD, PAD|PAD) must not feed the label feature,
            # or a sequence's output would depend on its batch's padding.
            gaps = torch.arange(early.shape[1], device=embedded.device)[None, :]
            real_early = early * (gaps < (lengths[:, None] - 1)).unsqueeze(-1)
            streams = self._pool(streams, word_ids, real_early, embedded)
            streams = self._run_layers(streams, masks, self.split, shared_top)
            if self.highway_output:
                heads.append(early)
        if self.criterion_layer_ids:
            streams = self._top_layer(streams, masks, criteria)
        heads.insert(0, self._gap_logits(self.head, self.criterion_heads, streams, criteria))
        return torch.stack(heads)

    def _gap_logits(self, shared: nn.Module, own: nn.ModuleList, streams, criteria: torch.Tensor) -> torch.Tensor:
        """(B, T - 1, 2) gap logits of each sequence by its criterion's head:
        the criteria of criterion_head_ids their own (``own``, in that order), the others ``shared``."""
        named = self._named_streams(streams)
        logits = shared(named)
        for criterion, head in zip(self.criterion_head_ids, own):
            logits = torch.where((criteria == criterion)[:, None, None], head(named), logits)
        return logits

    def _top_layer(self, streams, masks, criteria: torch.Tensor):
        """The top encoder layer: each sequence's criterion's own copy (criterion_layer_ids), or the shared one."""
        shared = self._run_layers(streams, masks, self.depth - 1, None)
        for criterion, layers in zip(self.criterion_layer_ids, self._own_top_layers()):
            own = self._run_own_layer(layers, streams, masks)
            shared = self._where(criteria == criterion, own, shared)
        return shared

    # -- the stream hooks of encode (one tensor per direction) ---------------------

    def _own_top_layers(self):
        return self.criterion_layers

    @staticmethod
    def _run_own_layer(layers: nn.ModuleDict, streams: Dict[str, torch.Tensor], masks) -> Dict[str, torch.Tensor]:
        allowed, gauss = masks
        return {name: layers[f"{name}_encoder"](x, allowed[name], gauss) for name, x in streams.items()}

    @staticmethod
    def _where(rows: torch.Tensor, own: Dict[str, torch.Tensor], shared: Dict[str, torch.Tensor]):
        """Per stream ``own`` for the sequences of bool (B,) ``rows``, else ``shared``."""
        return {name: torch.where(rows[:, None, None], own[name], x) for name, x in shared.items()}

    def _attention_masks(self, lengths: torch.Tensor, length: int):
        """Per direction the bool (B, 1, T, T) allowed keys, and the Gaussian (T, T) or None."""
        gauss = gaussian_weights(length, self.sigma, lengths.device) if self.gaussian else None
        return {name: self._allowed(lengths, length, name) for name in self.directions}, gauss

    def _start_streams(self, embedded: torch.Tensor) -> Dict[str, torch.Tensor]:
        return {name: embedded for name in self.directions}

    def _run_layers(self, streams: Dict[str, torch.Tensor], masks, start: int, stop: Optional[int]):
        allowed, gauss = masks
        return {
            name: self.encoders[f"{name}_encoder"](x, allowed[name], gauss, start, stop) for name, x in streams.items()
        }

    def _pool(self, streams, word_ids: torch.Tensor, real_early: torch.Tensor, embedded: torch.Tensor):
        """HiRED word pooling of every stream, then Highway-I (adds the embeddings)."""
        pooled = {}
        for name, x in streams.items():
            x = self.pooling[f"{name}_pooling"](x, word_ids, real_early)
            pooled[name] = x + embedded if self.highway_input else x
        return pooled

    @staticmethod
    def _named_streams(streams) -> Dict[str, torch.Tensor]:
        return streams

    @staticmethod
    def _early_word_ids(early: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Word index of each position from the early argmax: gap 0 (BOS|first)
        and every gap from the last symbol on are boundaries. (B, T - 1, 2) -> (B, T)."""
        batch, n_gaps, _ = early.shape
        gaps = torch.arange(n_gaps, device=early.device)[None, :]
        interior = (gaps >= 1) & (gaps < (lengths[:, None] - 2))
        boundary = (early.argmax(-1) == 1) | ~interior
        word_ids = torch.zeros(batch, n_gaps + 1, dtype=torch.long, device=early.device)
        word_ids[:, 1:] = torch.cumsum(boundary.long(), dim=1)
        return word_ids
