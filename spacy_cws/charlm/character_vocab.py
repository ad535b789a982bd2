"""The vocabulary of a character LM, in the vocab.txt format of BERT's WordPiece
tokenizer (transformers.BertTokenizerFast).

Every Chinese character is a token of its own (BERT's basic tokenizer puts
spaces around CJK characters), so the wordpieces are the characters, as in
the Chinese BERT of Devlin et al. (2019) that seeds 001 and 003 use. A Latin
word or a number is split into wordpieces; the vocabulary holds each ASCII
letter and digit of the text also as a continuation piece (``##a``), so any
such word can be read character by character instead of as [UNK].
"""
from collections import Counter
from typing import Iterable, List

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def character_vocab(texts: Iterable[str], min_count: int) -> List[str]:
    """The tokens: the special tokens, then the characters seen at least
    ``min_count`` times (whitespace left out), most frequent first (ties by
    code point), then ``##`` plus each ASCII letter and digit among them.
    RAISES ValueError: for min_count < 1."""
    if min_count < 1:
        raise ValueError(f"min_count is at least 1, got {min_count}")
    counts = Counter(character for text in texts for character in text if not character.isspace())
    characters = sorted((c for c, n in counts.items() if n >= min_count), key=lambda c: (-counts[c], c))
    pieces = ["##" + c for c in characters if c.isascii() and c.isalnum()]
    return SPECIAL_TOKENS + characters + pieces
