"""Per-unit lexicon match features, in the manner of Zhang et al. (2018) and of
SoftLexicon's B/M/E/S word sets, as flags.

For each lexicon channel (e.g. the training words, an external dictionary)
and each unit t of a text: whether a lexicon word begins at t (B), ends at t
(E) or holds t strictly inside (M), by word length 2, 3, 4 and 5 or more, and
whether t alone is a lexicon word (S): 13 flags per channel, packed into one
int64 per unit (bit ``channel * 13 + flag``). A word never matches across
whitespace. Matching uses an Aho-Corasick automaton (pyahocorasick) over the
normalised symbols of the text, so finding every lexicon word is linear in the
text's length plus the number of matches.

Jackknifing (Zhang et al. 2018 train their dictionary features the same way):
a lexicon built from the training words would otherwise tell the model that
every training word is in the lexicon, which is never true of new text. Each
word of a jackknifed channel carries a bit mask of the folds whose sentences
contain it; a training sentence of fold k sees only the words of the other
folds. At inference every word is seen.
"""
import zlib
from typing import Dict, List, Optional, Sequence

import numpy

from ..segmenter.character_view import Normaliser

LENGTH_BUCKETS = 4  # word lengths 2, 3, 4, 5+
BITS_PER_CHANNEL = 3 * LENGTH_BUCKETS + 1
MAX_CHANNELS = 63 // BITS_PER_CHANNEL
EVERY_FOLD = -1  # the fold mask of a word that is not jackknifed: present in every fold
_B, _E, _M, _S = 0, LENGTH_BUCKETS, 2 * LENGTH_BUCKETS, 3 * LENGTH_BUCKETS


def text_fold(text: str, n_folds: int) -> int:
    """The jackknife fold of a training text: a stable hash (CRC-32) modulo n_folds."""
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) % n_folds


def normalised_keys(words: Sequence[str], normaliser: Normaliser) -> List[str]:
    """Each word as the model sees it (its units' symbols, whitespace dropped),
    from one Normaliser pass over all words joined by newlines ("" for a word
    of whitespace only)."""
    if not words:
        return []
    joined = "\n".join(words)
    view = normaliser(joined)
    word_starts = numpy.cumsum([0] + [len(word) + 1 for word in words[:-1]])
    word_of_unit = numpy.searchsorted(word_starts, view.starts, side="right") - 1
    bounds = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(word_of_unit, minlength=len(words)))])
    return [view.symbols[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]


class LexiconMatcher:
    """Lexicon match flags of a text's units, for up to 4 channels.

    channels: per channel a dict from word to its fold mask (``EVERY_FOLD`` for
        a word seen in every fold, i.e. not jackknifed).
    normaliser: the segmenter's Normaliser, so words and texts are matched in
        the model's view (full-width folded, number and Latin runs collapsed).
    RAISES ValueError: for more than 4 channels.
    """

    def __init__(self, channels: Sequence[Dict[str, int]], normaliser: Normaliser):
        import ahocorasick  # pyahocorasick

        if len(channels) > MAX_CHANNELS:
            raise ValueError(f"At most {MAX_CHANNELS} lexicon channels fit the features, got {len(channels)}")
        self.n_channels = len(channels)
        masks: Dict[str, List[int]] = {}
        for channel, words in enumerate(channels):
            word_list = list(words)
            for key, word in zip(normalised_keys(word_list, normaliser), word_list):
                if key:
                    masks.setdefault(key, [0] * len(channels))[channel] |= words[word]
        # The automaton maps each key to its row in the length and mask arrays, so
        # a text's matches become numpy arrays with no Python work per match.
        self._automaton = ahocorasick.Automaton()
        for row, key in enumerate(masks):
            self._automaton.add_word(key, row)
        self._key_lengths = numpy.asarray([len(key) for key in masks], dtype=numpy.int64)
        self._key_masks = numpy.asarray(list(masks.values()), dtype=numpy.int64).reshape(len(masks), len(channels))
        self.n_keys = len(masks)
        if masks:
            self._automaton.make_automaton()

    @property
    def n_bits(self) -> int:
        """How many flags each unit has (13 per channel)."""
        return BITS_PER_CHANNEL * self.n_channels

    def features(self, symbols: str, spaced: numpy.ndarray, fold: Optional[int] = None) -> numpy.ndarray:
        """The flags of each unit.

        symbols: the units' symbols (CharacterView.symbols), length n.
        spaced: bool (n,), whitespace before each unit (CharacterView.spaced).
        fold: the jackknife fold of a training text, None at inference.
        RETURNS: int64 (n,), bit ``channel * 13 + flag`` set where the flag holds.
        """
        flags = numpy.zeros(len(symbols), dtype=numpy.int64)
        if not self.n_keys or not symbols:
            return flags
        seen = ~(1 << fold) if fold is not None else EVERY_FOLD
        found = numpy.fromiter(
            (value for match in self._automaton.iter(symbols) for value in match), dtype=numpy.int64
        ).reshape(-1, 2)
        match, channels = numpy.nonzero(self._key_masks[found[:, 1]] & seen)
        if not len(match):
            return flags
        ends, lengths = found[match, 0], self._key_lengths[found[match, 1]]
        starts = ends - lengths + 1
        spaces_before = numpy.cumsum(spaced)
        whole = spaces_before[ends] == spaces_before[starts]
        starts, ends, lengths, base = starts[whole], ends[whole], lengths[whole], channels[whole] * BITS_PER_CHANNEL
        single = lengths == 1
        numpy.bitwise_or.at(flags, starts[single], numpy.left_shift(1, base[single] + _S))
        starts, ends, lengths, base = starts[~single], ends[~single], lengths[~single], base[~single]
        bucket = numpy.minimum(lengths, LENGTH_BUCKETS + 1) - 2
        numpy.bitwise_or.at(flags, starts, numpy.left_shift(1, base + _B + bucket))
        numpy.bitwise_or.at(flags, ends, numpy.left_shift(1, base + _E + bucket))
        inner = lengths - 2
        if inner.sum():
            match = numpy.repeat(numpy.arange(len(lengths)), inner)
            offset = numpy.arange(len(match)) - numpy.repeat(numpy.cumsum(inner) - inner, inner)
            numpy.bitwise_or.at(flags, starts[match] + 1 + offset, numpy.left_shift(1, base[match] + _M + bucket[match]))
        return flags
