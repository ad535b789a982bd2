"""Word-POS lexicon attention (Gan & Zhang 2020, section 4.2), in PyTorch.

Gan & Zhang 2020: "Investigating Self-Attention Network for Chinese Word Segmentation".

Each character attends over the lexicon words that contain it (eq. 16-18):
h_i = sum_k alpha_ik x^w_k with alpha_ik = softmax_k(x^c_i W x^w_k). A word
is represented by its word embedding where it has one, else by the embedding
of its POS tag combined with the character's position in the word (the t_b
variant: B, M, E or S), eq. 13. In training a word is replaced by its POS with
probability min(1, sqrt(t / f(w))) (eq. 14-15; lexicon/word_slots.py draws
it), which is what trains the POS embeddings.

Departures from the paper, stated: the word embeddings are a hashed table
trained with the model (no pretrained Chinese word vectors exist on our
machines), and only the training words have one (the words the model saw in
training; every other lexicon word is its POS). The context vector enters the
model by a linear map added to the character's input vector, which equals the
paper's concatenation x^c (+) h followed by the next layer's linear map.
"""
import torch
from torch import nn

from ..lexicon.word_slots import POSITIONS, SLOT_TAG_MASK
from .lookup_table import LookupTable


class WordPosAttention(nn.Module):
    """The word context vector of each character.

    width: the model's input width (x^c). word_width: width of word and POS
        embeddings. word_rows: rows of the hashed word table. n_tags: coarse
        POS classes (lexicon/pos_tags.py).
    RAISES ValueError: for non-positive sizes.
    """

    def __init__(self, width: int, word_width: int, word_rows: int, n_tags: int):
        super().__init__()
        if min(width, word_width, word_rows, n_tags) < 1:
            raise ValueError(
                f"word attention needs positive sizes, got width {width}, word_width {word_width}, "
                f"word_rows {word_rows}, n_tags {n_tags}"
            )
        self.word_rows = word_rows
        self.word_embedding = LookupTable(word_rows, word_width)
        # Row 0 is the empty slot; row 1 + tag * 4 + position is POS tag at B/M/E/S.
        self.tag_embedding = nn.Embedding(1 + n_tags * len(POSITIONS), word_width, padding_idx=0)
        self.score = nn.Linear(width, word_width, bias=False)  # W of eq. 18: x^c W x^w
        self.output = nn.Linear(word_width, width)

    def forward(self, characters: torch.Tensor, slots: torch.Tensor) -> torch.Tensor:
        """characters: float (B, T, width), x^c. slots: int64 (B, T, K), per
        character its matched words (lexicon/word_slots.py: the tag-position
        id in the low SLOT_TAG_BITS bits, 0 for an empty slot; above them the
        word's hash + 1, or 0 where the word is represented by its POS).
        RETURNS float (B, T, width): the context vector h_i mapped to the model
        width; 0 where a character matched no word."""
        # The low bits and the rest by % and floor division (= & and >> on
        # two's complement): ONNX export has no integer bitwise operators.
        tag_ids = slots % (SLOT_TAG_MASK + 1)
        word_hashes = torch.div(slots, SLOT_TAG_MASK + 1, rounding_mode="floor")
        has_word = (word_hashes > 0)[..., None]
        words = self.word_embedding(word_hashes % self.word_rows)
        x_w = torch.where(has_word, words, self.tag_embedding(tag_ids))  # (B, T, K, w), eq. 13/15
        scores = torch.einsum("btw,btkw->btk", self.score(characters), x_w)  # eq. 18
        filled = tag_ids > 0
        scores = scores.masked_fill(~filled, float("-inf"))
        # A character with no word would softmax over nothing: give it weight 0.
        alpha = torch.softmax(scores.masked_fill(~filled.any(-1, keepdim=True), 0.0), dim=-1) * filled
        context = (alpha[..., None] * x_w).sum(-2)  # eq. 16
        return self.output(context)
