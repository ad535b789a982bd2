"""Unigram and bigram ids of a text's symbols, vectorised with numpy.

Each unit is represented by its unigram and the two bigrams it belongs to,
(c[t-1], c[t]) and (c[t], c[t+1]), with ``<s>`` / ``</s>`` at the edges of each
model sequence (Qiu et al. 2020, eq. 13; ../shared/spec/seed-models.md B).
Both vocabularies come from the training data only. Every symbol is one
character (see CharacterView), so a unigram id is a table lookup by code
point and a bigram id a sorted-key search: no Python loop over characters.
"""
from typing import Iterable, List, Sequence, Tuple, Union

import numpy

from .character_view import code_points
from .sequence_layout import SequenceLayout
from .symbol_specials import BOS, EOS, N_SPECIAL_SYMBOLS, UNK

SEQUENCE_START = "<s>"
SEQUENCE_END = "</s>"
N_CODE_POINTS = 0x110000
N_SYMBOL_COLUMNS = 4  # unigram, left bigram, right bigram, criterion (SymbolIds.features)


class SymbolIds:
    """Feature ids of symbols for the segmentation models.

    unigrams: the symbol vocabulary (single characters); id = index + 4.
    bigrams: known (left, right) symbol pairs, left may be "<s>" and right
        "</s>"; id = index + 4. PAD (0) and UNK (1) are shared specials. Or
        the pairs as unigram ids: an int array (n, 2) (``pair_unigram_ids``).
    RAISES ValueError: if a unigram is not one character or a bigram names a
        symbol outside ``unigrams``.
    """

    def __init__(self, unigrams: Sequence[str], bigrams: Union[Sequence[Sequence[str]], numpy.ndarray] = ()):
        bad = [u for u in unigrams if len(u) != 1]
        if bad:
            raise ValueError(f"Symbols must be single characters, got {bad[:5]}: retrain the pipeline")
        self.n_unigrams = len(unigrams) + N_SPECIAL_SYMBOLS
        self.n_bigrams = len(bigrams) + N_SPECIAL_SYMBOLS
        # A table by code point (2.2 MB in int16): one fancy index maps a whole text.
        self._unigram_table = numpy.full(N_CODE_POINTS, UNK, dtype=numpy.min_scalar_type(-self.n_unigrams))
        if unigrams:
            self._unigram_table[code_points("".join(unigrams))] = numpy.arange(
                N_SPECIAL_SYMBOLS, self.n_unigrams, dtype=numpy.int32
            )
        if isinstance(bigrams, numpy.ndarray):
            pairs = bigrams.astype(numpy.int64).reshape(-1, 2)
            if len(pairs) and (pairs.min() < 0 or pairs.max() >= self.n_unigrams or (pairs == UNK).any()):
                raise ValueError("Bigram unigram ids outside the unigram vocabulary: retrain the pipeline")
            keys = pairs[:, 0] * self.n_unigrams + pairs[:, 1]
        else:
            keys = numpy.asarray([self._pair_key(left, right) for left, right in bigrams], dtype=numpy.int64)
        order = numpy.argsort(keys, kind="stable")
        self._bigram_keys = keys[order]
        self._bigram_ids = (order + N_SPECIAL_SYMBOLS).astype(numpy.int64)

    def _symbol_id(self, symbol: str) -> int:
        if symbol == SEQUENCE_START:
            return BOS
        if symbol == SEQUENCE_END:
            return EOS
        unigram = int(self._unigram_table[ord(symbol)]) if len(symbol) == 1 else UNK
        if unigram == UNK:
            raise ValueError(f"Bigram symbol '{symbol}' is not in the unigram vocabulary: retrain the pipeline")
        return unigram

    def _pair_key(self, left: str, right: str) -> int:
        return self._symbol_id(left) * self.n_unigrams + self._symbol_id(right)

    def pair_unigram_ids(self) -> numpy.ndarray:
        """The bigram vocabulary as the unigram ids of its pairs, in id order:
        (n, 2), in the smallest unsigned dtype that holds them (what a
        featurizer saves; the constructor takes it back)."""
        pairs = numpy.empty((len(self._bigram_keys), 2), dtype=numpy.int64)
        rows = self._bigram_ids - N_SPECIAL_SYMBOLS
        pairs[rows, 0], pairs[rows, 1] = self._bigram_keys // self.n_unigrams, self._bigram_keys % self.n_unigrams
        return pairs.astype(numpy.min_scalar_type(max(self.n_unigrams - 1, 0)))

    def unigram_ids(self, symbols: str) -> numpy.ndarray:
        """int64 (n,): the unigram id of each symbol (UNK = 1 for unknown ones)."""
        return self._unigram_table[code_points(symbols)].astype(numpy.int64)

    def gap_bigram_keys(self, unigram_ids: numpy.ndarray) -> numpy.ndarray:
        """int64 (n + 1,): a key for the bigram across each gap of one sequence,
        gap 0 = (<s>, c[0]) and gap n = (c[n-1], </s>)."""
        padded = numpy.concatenate([[BOS], unigram_ids, [EOS]]).astype(numpy.int64)
        return padded[:-1] * self.n_unigrams + padded[1:]

    def _bigram_ids_of_keys(self, keys: numpy.ndarray) -> numpy.ndarray:
        if not len(self._bigram_keys):
            return numpy.full(len(keys), UNK, dtype=numpy.int64)
        position = numpy.searchsorted(self._bigram_keys, keys).clip(0, len(self._bigram_keys) - 1)
        found = self._bigram_keys[position] == keys
        return numpy.where(found, self._bigram_ids[position], UNK)

    def bigram_ids(self, pairs: Sequence[Sequence[str]]) -> numpy.ndarray:
        """int64 (len(pairs),): the id of each (left, right) symbol pair (UNK = 1
        for an unknown pair). RAISES ValueError: for a symbol outside the
        unigram vocabulary."""
        keys = numpy.asarray([self._pair_key(left, right) for left, right in pairs], dtype=numpy.int64)
        return self._bigram_ids_of_keys(keys)

    def features(self, symbols: str, layout: SequenceLayout, criteria: Sequence[int]) -> numpy.ndarray:
        """int64 (n, 4) for the units of consecutive model sequences (``layout``):
        the columns unigram id, left bigram id (c[t-1], c[t]), right bigram id
        (c[t], c[t+1]), with ``<s>``/``</s>`` at each sequence's edges, and the
        criterion id of the unit's sequence (``criteria``, one per sequence)."""
        unigrams = self.unigram_ids(symbols)
        left = self._bigram_ids_of_keys(layout.shifted(unigrams, -1, BOS) * self.n_unigrams + unigrams)
        # A unit's right bigram is the next unit's left one, except at the end
        # of its sequence: one search per gap, not two per unit.
        right = numpy.empty_like(left)
        right[:-1] = left[1:]
        last = numpy.cumsum(layout.lengths) - 1
        right[last] = self._bigram_ids_of_keys(unigrams[last] * self.n_unigrams + EOS)
        criterion = numpy.repeat(numpy.asarray(criteria, dtype=numpy.int64), layout.lengths)
        return numpy.stack([unigrams, left, right, criterion], axis=1)

    def frequent_bigrams(self, texts_symbols: Iterable[str], min_count: int) -> List[Tuple[str, str]]:
        """The bigrams of known symbols seen at least ``min_count`` times in whole
        texts (edges as "<s>"/"</s>"), most frequent first, ties by key.

        RAISES ValueError: if min_count < 1.
        """
        if min_count < 1:
            raise ValueError(f"bigram min_count must be at least 1, got {min_count}")
        keys = [self.gap_bigram_keys(self.unigram_ids(symbols)) for symbols in texts_symbols if symbols]
        if not keys:
            return []
        unique, counts = numpy.unique(numpy.concatenate(keys), return_counts=True)
        left, right = unique // self.n_unigrams, unique % self.n_unigrams
        kept = (counts >= min_count) & (left != UNK) & (right != UNK)
        unique, counts = unique[kept], counts[kept]
        order = numpy.lexsort((unique, -counts))
        names = {BOS: SEQUENCE_START, EOS: SEQUENCE_END}
        for code in numpy.flatnonzero(self._unigram_table != UNK):
            names[int(self._unigram_table[code])] = chr(code)
        n = self.n_unigrams
        return [(names[int(key) // n], names[int(key) % n]) for key in unique[order]]
