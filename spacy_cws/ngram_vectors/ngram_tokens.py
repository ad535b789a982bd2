"""The unigram and bigram token sequences of a text, as the models see them.

A text's symbols come from the segmenter's Normaliser (width folding, number
and Latin runs as "0"/"X", OpenCC), so a pretrained vector belongs to exactly
the symbol or symbol pair the model looks up. Bigrams span every gap of the
text, edges included, as in SymbolIds: (<s>, c[0]), (c[0], c[1]), ...,
(c[n-1], </s>).
"""
from typing import Iterable, Iterator, List, Tuple

from ..features.symbol_ids import SEQUENCE_END, SEQUENCE_START


def bigram_key(left: str, right: str) -> str:
    """The vector key of a symbol pair: the two symbols joined ("<s>" and
    "</s>" at the edges, so an edge key is 4 characters, any other 2)."""
    return left + right


def split_bigram_key(key: str) -> Tuple[str, str]:
    """The (left, right) symbols of a key made by bigram_key.

    RAISES ValueError: for a key that no pair of one-character symbols (or an
        edge marker and one) makes."""
    if len(key) == 2:
        return key[0], key[1]
    if len(key) == 1 + len(SEQUENCE_START) and key.startswith(SEQUENCE_START):
        return SEQUENCE_START, key[-1]
    if len(key) == 1 + len(SEQUENCE_END) and key.endswith(SEQUENCE_END):
        return key[0], SEQUENCE_END
    raise ValueError(f"{key!r} is not a bigram key (two symbols, or <s>/</s> and one symbol)")


def ngram_sequences(symbol_texts: Iterable[str]) -> Iterator[Tuple[List[str], List[str]]]:
    """Per non-empty text of symbols (CharacterView.symbols): (its unigram
    tokens, n; its bigram keys, n + 1)."""
    for symbols in symbol_texts:
        if not symbols:
            continue
        padded = [SEQUENCE_START, *symbols, SEQUENCE_END]
        yield list(symbols), [bigram_key(left, right) for left, right in zip(padded, padded[1:])]
