"""Lexicon flags and hashed trigrams as extra input of the segmentation models (PyTorch).

Both are added to each position's input vector, for every architecture:

- lexicon flags (lexicon/match_features.py: per channel, whether a lexicon
  word begins, ends or continues at the character, by length, or is the
  character alone; Zhang et al. 2018) enter through a linear layer;
- hashed trigrams (left, centre, right; features/ngram_hashes.py) index a
  table of ``trigram_rows`` rows twice each (the hashing trick), the two rows
  are summed, and the three trigram vectors are projected to the model width
  (as the bigrams of Qiu et al. 2020 eq. 13);
- word slots (lexicon/word_slots.py: the lexicon words holding each
  character) enter through the word-POS attention of Gan & Zhang 2020
  (pytorch_word_pos_attention.py), which also reads the character's vector.
"""
from typing import Optional

import torch
from torch import nn

from ..lexicon.pos_tags import COARSE_TAGS
from .lookup_table import LookupTable
from .padded_inputs import N_EXTRA_COLUMNS  # noqa: F401  (without word slots; they follow, one column a slot)
from .pytorch_word_pos_attention import WordPosAttention

# Columns of the extra features tensor: lexicon flags, then the trigram hashes.
LEXICON_COLUMN = 0
TRIGRAM_COLUMNS = slice(1, 7)
WORD_SLOT_COLUMNS = slice(7, None)
TRIGRAM_KINDS, HASHES_PER_TRIGRAM = 3, 2


class LexiconAndTrigramInput(nn.Module):
    """Maps the extra features to a vector per position, or to nothing when
    both kinds are switched off (then it has no parameters).

    n_lexicon_bits: flags per position (0 = no lexicon).
    trigram_width: width of a trigram vector (0 = no trigrams).
    trigram_rows: rows of the hashed trigram table (> 0 when trigram_width is).
    width: the model's input width.
    word_slots: K, word slots per character (0 = no word-POS attention).
    word_width, word_rows: the word and POS embeddings' width and the hashed
        word table's rows (> 0 with word slots).
    RAISES ValueError: for negative sizes, trigrams without rows, or word
        slots without word_width and word_rows.
    """

    def __init__(
        self,
        n_lexicon_bits: int,
        trigram_width: int,
        trigram_rows: int,
        width: int,
        word_slots: int = 0,
        word_width: int = 0,
        word_rows: int = 0,
    ):
        super().__init__()
        if n_lexicon_bits < 0 or trigram_width < 0 or (trigram_width and trigram_rows < 1):
            raise ValueError(
                "lexicon bits and trigram_width must be >= 0, and trigram_rows >= 1 with trigrams; "
                f"got {n_lexicon_bits}, {trigram_width}, {trigram_rows}"
            )
        if word_slots < 0 or (word_slots and min(word_width, word_rows) < 1):
            raise ValueError(
                "word_slots must be >= 0, and word_width and word_rows >= 1 with word slots; "
                f"got {word_slots}, {word_width}, {word_rows}"
            )
        self.n_lexicon_bits = n_lexicon_bits
        self.trigram_width = trigram_width
        self.trigram_rows = trigram_rows
        if n_lexicon_bits:
            self.lexicon_projection = nn.Linear(n_lexicon_bits, width)
        if trigram_width:
            self.trigram_embedding = LookupTable(trigram_rows, trigram_width)
            self.trigram_projection = nn.Linear(TRIGRAM_KINDS * trigram_width, width)
        self.word_slots = word_slots
        if word_slots:
            self.word_attention = WordPosAttention(width, word_width, word_rows, len(COARSE_TAGS))

    @property
    def active(self) -> bool:
        return bool(self.n_lexicon_bits or self.trigram_width or self.word_slots)

    def forward(self, extras: torch.Tensor, characters: torch.Tensor) -> Optional[torch.Tensor]:
        """extras: int64 (B, T, 7 + K), per position the lexicon flags (one
        int), six trigram hashes and K word slots. characters: float (B, T,
        width), each position's vector so far (the word-POS attention's query).
        RETURNS (B, T, width), or None when inactive."""
        out = None
        if self.n_lexicon_bits:
            # No buffer for the bit positions: every tensor of the module is a
            # saved weight, so it can be built empty and loaded (module_weights.py).
            # Bit j as (x // 2**j) % 2, the floor division being an arithmetic
            # shift: ONNX export has no integer bitwise operators.
            powers = 2 ** torch.arange(self.n_lexicon_bits, device=extras.device)
            flags = torch.div(extras[..., LEXICON_COLUMN, None], powers, rounding_mode="floor") % 2 != 0
            out = self.lexicon_projection(flags.to(self.lexicon_projection.weight.dtype))
        if self.trigram_width:
            rows = self.trigram_embedding(extras[..., TRIGRAM_COLUMNS] % self.trigram_rows)  # (B, T, 6, w)
            trigrams = rows.view(*rows.shape[:2], TRIGRAM_KINDS, HASHES_PER_TRIGRAM, -1).sum(3).flatten(-2)
            projected = self.trigram_projection(trigrams)
            out = projected if out is None else out + projected
        if self.word_slots:
            context = self.word_attention(characters, extras[..., WORD_SLOT_COLUMNS])
            out = context if out is None else out + context
        return out
