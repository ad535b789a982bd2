"""BMES character taggers: SAN-CRF (Gan & Zhang 2020) and the multi-criteria Transformer (Qiu et al. 2020).

Papers: Gan & Zhang 2020, "Investigating Self-Attention Network for Chinese Word Segmentation";
Qiu et al. 2020, "A Concise Model for Multi-Criteria Chinese Word Segmentation".

One module serves both papers' models; they differ only in settings:

- input (Qiu et al. 2020 eq. 13): x_t = FC([e_uni(c_t); e_bi(c[t-1]c[t]);
  e_bi(c[t]c[t+1])]), one bigram table shared by both bigram positions, then
  times sqrt(width), plus sinusoidal positions (Vaswani et al. 2017), dropout;
- a criterion token (Qiu et al. 2020, section 3): its embedding is prepended
  at position 0 and every position may attend to it (also under a local
  window), and it is dropped from the output;
- a Transformer encoder (pre-LayerNorm with a final LayerNorm, ReLU: torch's
  own nn.TransformerEncoderLayer) whose self-attention is either global or
  local: keys with |i - j| <= window (the L-SAN of Gan & Zhang 2020, eq. 8, read with
  an absolute difference);
- optionally (``charlm_path``) a frozen character LM's vectors of the
  sentence, projected and added to each character's input (Gan & Zhang
  2020 section 4.1, SAN-CRF "+BERT", used feature-based;
  pytorch_charlm_features.py);
- Linear(width -> 4) emissions over B/M/E/S, decoded by a CRF (pytorch-crf's
  CRF holds the transitions; BMES constraints apply at Viterbi decoding only,
  decoding/viterbi.py) or by a per-character softmax.
"""
import math

import torch
from torch import nn
from torchcrf import CRF

from ..features.symbol_specials import PAD
from .architecture_settings import DECODERS, validate_tagger_settings  # noqa: F401  (checked without torch)
from .lookup_table import LookupTable
from .pytorch_gd_transformer import sinusoidal_positions
from .pytorch_input_features import LexiconAndTrigramInput

N_TAGS = 4  # B, M, E, S


def attention_allowed(keys: torch.Tensor, window: int, criterion_token: bool) -> torch.Tensor:
    """bool (B, T, T): which keys each query may attend to.

    keys: bool (B, T), the real (non-padding) positions. A query sees the real
    keys within ``window`` positions (0 = global), the criterion token at
    position 0 when there is one (and the token sees all), and always itself,
    so that no row (padding included) softmaxes over nothing: a NaN there
    would reach real rows through 0 * NaN in the next layer.
    """
    length = keys.shape[1]
    positions = torch.arange(length, device=keys.device)
    allowed = keys[:, None, :].expand(-1, length, -1)
    if window > 0:
        near = (positions[:, None] - positions[None, :]).abs() <= window
        if criterion_token:
            near[:, 0] = True
            near[0, :] = True
        allowed = allowed & near
    # The diagonal by comparison, not a bool torch.eye: ONNX Runtime has no bool EyeLike (an exported tagger).
    return allowed | (positions[:, None] == positions[None, :])


class BMESTagger(nn.Module):
    """Transformer BMES tagger with optional local attention, criterion token and CRF.

    n_symbols, n_bigrams: vocabulary sizes including the 4 specials (PAD, UNK,
        BOS, EOS); n_bigrams is used only when bigram_width > 0.
    n_criteria: criteria served (0 = single criterion: no criterion token).
    unigram_width, bigram_width: embedding widths (bigram_width 0 = no bigrams).
    width, depth, n_heads, ff_width: the encoder (d_model, layers, heads, FFN).
    dropout: embedding, residual and FFN dropout; attention_dropout: on the
        attention weights (nn.TransformerEncoderLayer has one rate for both
        inside a layer, so attention_dropout there is ``dropout``; the
        embedding dropout is separate).
    window: local attention radius (0 = global attention).
    decoder: "crf" or "softmax".
    n_lexicon_bits, trigram_width, trigram_rows, word_slots, word_width,
        word_rows: lexicon flags, hashed trigrams and the word-POS attention of
        Gan & Zhang 2020 added to each position's input (LexiconAndTrigramInput; 0 = none).
    charlm_path, charlm_layers, symbols: a character LM folder whose frozen
        vectors (the mean of its last charlm_layers layers) are added to each
        position's input, and the symbol vocabulary mapped to its tokens
        (CharLMFeatures); "" = none.
    RAISES ValueError: for a width not divisible by n_heads, an unknown decoder,
        negative sizes, or a charlm_path that holds no LM.
    """

    def __init__(
        self,
        n_symbols: int,
        n_bigrams: int,
        n_criteria: int,
        unigram_width: int,
        bigram_width: int,
        width: int,
        depth: int,
        n_heads: int,
        ff_width: int,
        dropout: float,
        window: int,
        decoder: str,
        n_lexicon_bits: int = 0,
        trigram_width: int = 0,
        trigram_rows: int = 0,
        word_slots: int = 0,
        word_width: int = 0,
        word_rows: int = 0,
        charlm_path: str = "",
        charlm_layers: int = 1,
        symbols: str = "",
    ):
        super().__init__()
        validate_tagger_settings(width, depth, n_heads, window, decoder, unigram_width, bigram_width)
        if n_criteria < 0:
            raise ValueError(f"n_criteria must be >= 0, got {n_criteria}")
        self.width = width
        self.n_heads = n_heads
        self.window = window
        self.embedding = nn.Embedding(n_symbols, unigram_width, padding_idx=PAD)
        self.bigram_width = bigram_width
        if bigram_width:
            self.bigram_embedding = LookupTable(n_bigrams, bigram_width, padding_idx=PAD)
        self.input_projection = nn.Linear(unigram_width + 2 * bigram_width, width)
        self.extra_input = LexiconAndTrigramInput(
            n_lexicon_bits, trigram_width, trigram_rows, width, word_slots, word_width, word_rows
        )
        self.charlm = None
        if charlm_path:
            from .pytorch_charlm_features import CharLMFeatures  # transformers: only for a model with an LM

            self.charlm = CharLMFeatures(charlm_path, symbols, width, charlm_layers)
        self.n_criteria = n_criteria
        if n_criteria:
            self.criterion_embedding = nn.Embedding(n_criteria, width)
        self.embedding_dropout = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(
            width, n_heads, ff_width, dropout, activation="relu", batch_first=True, norm_first=True
        )
        # enable_nested_tensor needs post-LN layers; pre-LN (the seeds' choice) cannot use it.
        self.encoder = nn.TransformerEncoder(
            layer, depth, norm=nn.LayerNorm(width), enable_nested_tensor=False
        )
        self.output = nn.Linear(width, N_TAGS)
        self.crf = CRF(N_TAGS, batch_first=True) if decoder == "crf" else None
        for name, parameter in self.named_parameters():
            # Qiu et al. 2020: Xavier initialisation; never over the LM's trained weights.
            if parameter.dim() > 1 and not name.startswith(("crf", "charlm.encoder")):
                nn.init.xavier_uniform_(parameter)

    def forward(
        self,
        ids: torch.Tensor,
        lengths: torch.Tensor,
        bigrams: torch.Tensor,
        criteria: torch.Tensor,
        extras: torch.Tensor,
    ) -> torch.Tensor:
        """ids: int64 (B, T) symbols, PAD after each sequence; lengths: int64 (B,);
        bigrams: int64 (B, T, 2) left and right bigram ids (ignored when
        bigram_width = 0); criteria: int64 (B,) (ignored when n_criteria = 0);
        extras: int64 (B, T, 7 + word_slots) lexicon flags, trigram
        hashes and word slots.
        RETURNS emissions (B, T, 4) over B/M/E/S (rows past a sequence's length
        are padding)."""
        features = [self.embedding(ids)]
        if self.bigram_width:
            features.append(self.bigram_embedding(bigrams).flatten(-2))
        x = self.input_projection(torch.cat(features, dim=-1))
        if self.extra_input.active:
            x = x + self.extra_input(extras, x)
        if self.charlm is not None:
            x = x + self.charlm.without_edges(ids, lengths)
        keys = torch.arange(ids.shape[1], device=ids.device)[None, :] < lengths[:, None]  # (B, T)
        token = bool(self.n_criteria)
        if token:
            x = torch.cat([self.criterion_embedding(criteria)[:, None, :], x], dim=1)
            keys = torch.cat([keys.new_ones(keys.shape[0], 1), keys], dim=1)
        length = x.shape[1]
        # Positions in x's dtype: a bfloat16 inference copy stays bfloat16 (float32 would be promoted to).
        x = x * math.sqrt(self.width) + sinusoidal_positions(length, self.width, ids.device).to(x.dtype)
        x = self.embedding_dropout(x)
        blocked = ~attention_allowed(keys, self.window, token)
        # One (T, T) mask per sequence and head: nn.MultiheadAttention's (B * heads, T, T) form.
        hidden = self.encoder(x, mask=blocked.repeat_interleave(self.n_heads, dim=0))
        if token:
            hidden = hidden[:, 1:]
        return self.output(hidden)
