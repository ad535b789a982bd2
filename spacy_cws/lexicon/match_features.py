"""Per-unit lexicon match features, in the manner of Zhang et al. (2018) and of
SoftLexicon's B/M/E/S word sets, as flags.

For each lexicon channel (e.g. the training words, an external dictionary)
and each unit t of a text: whether a lexicon word begins at t (B), ends at t
(E) or holds t strictly inside (M), by word length 2, 3, 4 and 5 or more, and
whether t alone is a lexicon word (S): 13 flags per channel, packed into one
int64 per unit (bit ``channel * 13 + flag``). A word never matches across
whitespace. Matching looks up every window of the text's normalised symbols
among the lexicon's normalised words (key_index.py), vectorised over the text,
one pass per word length. A pipeline saves the matcher as it
is built (``to_bytes``), so loading it rebuilds nothing.

Jackknifing (Zhang et al. 2018 train their dictionary features the same way):
a lexicon built from the training words would otherwise tell the model that
every training word is in the lexicon, which is never true of new text. Each
word of a jackknifed channel carries a bit mask of the folds whose sentences
contain it; a training sentence of fold k sees only the words of the other
folds. At inference every word is seen.
"""
import zlib
from array import array
from functools import partial
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy
import srsly

from ..features.character_view import Normaliser
from .key_index import KeyIndex
from .pos_tags import coarse_tag
from .word_slots import drop_replaced, fill_word_slots, replacement_probability

LENGTH_BUCKETS = 4  # word lengths 2, 3, 4, 5+
BITS_PER_CHANNEL = 3 * LENGTH_BUCKETS + 1
MAX_CHANNELS = 63 // BITS_PER_CHANNEL
EVERY_FOLD = -1  # the fold mask of a word that is not jackknifed: present in every fold
_B, _E, _M, _S = 0, LENGTH_BUCKETS, 2 * LENGTH_BUCKETS, 3 * LENGTH_BUCKETS
MATCH_BLOCK = 65536  # automaton matches turned into flags at a time
# Words normalised at a time, so that a large lexicon's character views never
# exist all at once while a pipeline loads.
KEY_BLOCK = 32768


def text_fold(text: str, n_folds: int) -> int:
    """The jackknife fold of a training text: a stable hash (CRC-32) modulo n_folds."""
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) % n_folds


def normalised_keys(words: Sequence[str], normaliser: Normaliser) -> List[str]:
    """Each word as the model sees it (its units' symbols, whitespace dropped),
    from one Normaliser pass per KEY_BLOCK words joined by newlines ("" for a
    word of whitespace only)."""
    return [
        key
        for start in range(0, len(words), KEY_BLOCK)
        for key in _block_keys(words[start : start + KEY_BLOCK], normaliser)
    ]


def _block_keys(words: Sequence[str], normaliser: Normaliser) -> List[str]:
    if not words:
        return []
    joined = "\n".join(words)
    view = normaliser(joined)
    word_starts = numpy.cumsum([0] + [len(word) + 1 for word in words[:-1]])
    word_of_unit = numpy.searchsorted(word_starts, view.starts, side="right") - 1
    bounds = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(word_of_unit, minlength=len(words)))])
    return [view.symbols[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]


def normaliser_signature(normaliser: Normaliser) -> list:
    """What the keys of a matcher depend on: a matcher saved with another
    signature (e.g. a config override of opencc) must be rebuilt."""
    return [normaliser.fold_width, normaliser.collapse_runs, normaliser.opencc]


def _pack_flags(flags: numpy.ndarray) -> numpy.ndarray:
    """bool (n, b) with b <= 63 -> int64 (n,), flag j as bit j (numpy.packbits:
    8 bytes a row, where a matrix product would make 8 bytes a flag)."""
    rows = numpy.zeros((len(flags), 8), dtype=numpy.uint8)
    packed = numpy.packbits(flags, axis=1, bitorder="little")
    rows[:, : packed.shape[1]] = packed
    return rows.view("<i8").reshape(-1).astype(numpy.int64, copy=False)


class LexiconMatcher:
    """Lexicon match flags and word slots of a text's units, for up to 4 channels.

    channels: per channel a dict from word to its fold mask (``EVERY_FOLD`` for
        a word seen in every fold, i.e. not jackknifed).
    normaliser: the segmenter's Normaliser, so words and texts are matched in
        the model's view (full-width folded, number and Latin runs collapsed).
    tags: a word's POS tag (CTB or ICTCLAS, pos_tags.py), for the word slots;
        a word with none is X.
    frequencies: a word's count in the training data, for the word slots'
        replacement by POS (word_slots.py).
    embedded_channel: the channel whose words have word embeddings in the
        word slots (the training words); None: every word is its POS.
    RAISES ValueError: for more than 4 channels.
    """

    def __init__(
        self,
        channels: Sequence[Dict[str, int]],
        normaliser: Normaliser,
        tags: Optional[Mapping[str, Optional[str]]] = None,
        frequencies: Optional[Mapping[str, int]] = None,
        embedded_channel: Optional[int] = None,
    ):
        if len(channels) > MAX_CHANNELS:
            raise ValueError(f"At most {MAX_CHANNELS} lexicon channels fit the features, got {len(channels)}")
        tags, frequencies = tags or {}, frequencies or {}
        # A row per distinct key (normalised word), its values in arrays: a
        # Python list per key would add an object to every key while a
        # pipeline loads (the peak of loading).
        rows: Dict[str, int] = {}
        most = sum(len(words) for words in channels)
        key_masks = numpy.zeros((most, len(channels)), dtype=numpy.int64)
        key_tags = array("q", bytes(8 * most))  # 0 = UNKNOWN_TAG
        for channel, words in enumerate(channels):
            word_list = list(words)
            keys = normalised_keys(word_list, normaliser)
            word_rows = numpy.fromiter(
                (rows.setdefault(key, len(rows)) for key in keys), dtype=numpy.int64, count=len(keys)
            )
            kept = numpy.fromiter((bool(key) for key in keys), dtype=bool, count=len(keys))
            del keys
            masks = numpy.fromiter((words[word] for word in word_list), dtype=numpy.int64, count=len(word_list))
            numpy.bitwise_or.at(key_masks[:, channel], word_rows[kept], masks[kept])
            # A key's tag: the first tag among its words, channel by channel
            # (without tags every key stays UNKNOWN_TAG: no loop over the words).
            for row, word, keep in zip(word_rows.tolist(), word_list, kept.tolist()) if tags else ():
                if keep and not key_tags[row]:
                    key_tags[row] = coarse_tag(tags.get(word))
        rows.pop("", None)  # words of whitespace only match nothing
        kept_rows = numpy.fromiter(rows.values(), dtype=numpy.int64, count=len(rows))
        key_frequencies = numpy.zeros(most, dtype=numpy.int64)
        for key, word in zip(normalised_keys(list(frequencies), normaliser), frequencies):
            row = rows.get(key)
            if row is not None:
                key_frequencies[row] += frequencies[word]
        values = {
            "lengths": numpy.fromiter((len(key) for key in rows), dtype=numpy.int64, count=len(rows)),
            "masks": key_masks[kept_rows],
            "tags": numpy.frombuffer(key_tags, dtype=numpy.int64)[kept_rows],
            "frequencies": key_frequencies[kept_rows],
        }
        if embedded_channel is not None:  # the word slots' hashes
            values["crc32"] = numpy.fromiter(
                (zlib.crc32(key.encode("utf-8", "surrogatepass")) for key in rows), dtype=numpy.uint32, count=len(rows)
            )
        del key_masks, key_tags, key_frequencies
        self._take(KeyIndex(list(rows), values), len(channels), embedded_channel, normaliser_signature(normaliser))

    def _take(self, index: KeyIndex, n_channels: int, embedded_channel: Optional[int], signature: list) -> None:
        """Match with ``index`` (KeyIndex): its arrays "lengths", "masks"
        (keys, channels), "tags", "frequencies" and, with an embedded channel,
        "crc32" are per key, each in the smallest integer dtype that holds it
        (cast where used)."""
        self.n_channels = n_channels
        self.embedded_channel = embedded_channel
        self.signature = signature
        self._index = index
        self._key_lengths = index.values["lengths"]
        self._key_masks = index.values["masks"]
        self._key_tags = index.values["tags"]
        self._key_frequencies = index.values["frequencies"]
        self._key_crc32 = index.values.get("crc32")
        self._replacement_probabilities: Dict[float, numpy.ndarray] = {}
        self.n_keys = len(index)
        # A match covering unit t lies within max_key_length - 1 units of it.
        self.max_key_length = index.max_key_length

    def to_bytes(self) -> bytes:
        """msgpack: the key index (key_index.py), the channel count, the
        embedded channel and the normaliser's signature (normaliser_signature)."""
        return srsly.msgpack_dumps(
            {
                "index": self._index.to_bytes(),
                "n_channels": self.n_channels,
                "embedded_channel": self.embedded_channel,
                "normaliser": self.signature,
            }
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> "LexiconMatcher":
        """The matcher saved by ``to_bytes``, with nothing rebuilt. Its
        ``signature`` says which view of the text its keys were made in.

        RAISES ValueError: for bytes that are not a saved matcher.
        """
        try:
            msg = srsly.msgpack_loads(data)
            index = KeyIndex.from_bytes(msg["index"])
        except (TypeError, KeyError) as err:
            raise ValueError(f"the lexicon matcher is corrupt ({type(err).__name__}: {err})") from err
        matcher = cls.__new__(cls)
        matcher._take(index, int(msg["n_channels"]), msg["embedded_channel"], list(msg["normaliser"]))
        return matcher

    def knows(self, key: str) -> bool:
        """Whether ``key`` (a word in the model's view: ``normalised_keys``)
        is a word of some channel."""
        return key in self._index

    @property
    def n_bits(self) -> int:
        """How many flags each unit has (13 per channel)."""
        return BITS_PER_CHANNEL * self.n_channels

    def features(self, symbols: str, spaced: numpy.ndarray, fold: Optional[int] = None) -> numpy.ndarray:
        """The flags of each unit of one text (see ``batch_features``)."""
        return self.batch_features([symbols], [spaced], None if fold is None else [fold])[0]

    def batch_features(
        self,
        texts_symbols: Sequence[str],
        texts_spaced: Sequence[numpy.ndarray],
        folds: Optional[Sequence[int]] = None,
        ranges: Optional[Sequence[Tuple[int, int]]] = None,
    ) -> List[numpy.ndarray]:
        """The flags of each unit of each text, from one automaton scan over the
        batch (the texts joined by newlines, which no key contains).

        texts_symbols: per text its units' symbols (CharacterView.symbols).
        texts_spaced: per text bool (n,), whitespace before each unit.
        folds: per text its jackknife fold (training), or None (inference).
        ranges: per text the [start, end) units wanted (a window of a long
            text), or None for all. Only the units within ``max_key_length - 1``
            of the range are scanned, so the flags equal the whole text's.
        RETURNS: per text int64 (end - start,) or (n,), bit ``channel * 13 +
            flag`` set where the flag holds.
        """
        return self._per_text(self._flags, texts_symbols, texts_spaced, folds, ranges)

    def batch_word_slots(
        self,
        texts_symbols: Sequence[str],
        texts_spaced: Sequence[numpy.ndarray],
        n_slots: int,
        folds: Optional[Sequence[int]] = None,
        ranges: Optional[Sequence[Tuple[int, int]]] = None,
        replacement_threshold: float = 0.0,
        training: bool = False,
    ) -> List[numpy.ndarray]:
        """The word slots of each unit of each text (word_slots.py), from the
        same matches as ``batch_features`` (jackknifed by ``folds``).

        n_slots: K, slots per unit. replacement_threshold: Gan & Zhang 2020's t: a
            match of a word of the embedded channel is its POS instead with
            probability min(1, sqrt(t / f(w))), drawn in training; at
            inference only the words replaced always (f(w) <= t) are.
        RETURNS: per text int64 (n, K) (or (end - start, K) with ranges).
        """
        if replacement_threshold not in self._replacement_probabilities:  # once per threshold, not per batch
            self._replacement_probabilities[replacement_threshold] = replacement_probability(
                self._key_frequencies, replacement_threshold
            )
        probabilities = self._replacement_probabilities[replacement_threshold]
        fill = partial(self._word_slots, n_slots=n_slots, probabilities=probabilities, training=training)
        return self._per_text(fill, texts_symbols, texts_spaced, folds, ranges)

    def _per_text(self, make, texts_symbols, texts_spaced, folds, ranges) -> List[numpy.ndarray]:
        """``make(joined_length, matches)`` over the texts joined by newlines,
        split back per text (and cut to ``ranges``, scanning their context)."""
        if ranges is not None:
            reach = max(self.max_key_length - 1, 0)
            context = [
                (max(start - reach, 0), min(end + reach, len(symbols)))
                for (start, end), symbols in zip(ranges, texts_symbols)
            ]
            rows = self._per_text(
                make,
                [symbols[a:b] for (a, b), symbols in zip(context, texts_symbols)],
                [spaced[a:b] for (a, b), spaced in zip(context, texts_spaced)],
                folds,
                None,
            )
            return [text_rows[start - a : end - a] for text_rows, (start, end), (a, _) in zip(rows, ranges, context)]
        lengths = numpy.asarray([len(symbols) for symbols in texts_symbols], dtype=numpy.int64)
        offsets = numpy.concatenate([[0], numpy.cumsum(lengths + 1)])
        matches = self._matches("\n".join(texts_symbols), texts_spaced, offsets, folds) if self.n_keys else iter(())
        rows = make(int(offsets[-1]), matches)
        return [rows[a : a + n] for a, n in zip(offsets[:-1].tolist(), lengths.tolist())]

    def _matches(self, joined: str, texts_spaced, offsets: numpy.ndarray, folds) -> Iterator[tuple]:
        """Per block of MATCH_BLOCK matches (key_index.py): the starts, ends and
        key rows (int (m,)) and channel masks (int (m, channels)) of the
        matches that cross no whitespace and keep a channel after jackknifing."""
        spaced = numpy.zeros(int(offsets[-1]), dtype=bool)
        for offset, text_spaced in zip(offsets[:-1].tolist(), texts_spaced):
            spaced[offset : offset + len(text_spaced)] = text_spaced
        spaces_before = numpy.cumsum(spaced)
        fold_bits = None if folds is None else numpy.int64(1) << numpy.asarray(folds, dtype=numpy.int64)
        all_ends, all_key_rows = self._index.matches(joined)
        # The matches become flags MATCH_BLOCK at a time, so the flag arrays do not grow with the text.
        for block in range(0, len(all_ends), MATCH_BLOCK):
            ends, key_rows = all_ends[block : block + MATCH_BLOCK], all_key_rows[block : block + MATCH_BLOCK]
            masks = self._key_masks[key_rows]
            if fold_bits is not None:
                text_of_match = numpy.searchsorted(offsets, ends, side="right") - 1
                masks = masks & ~fold_bits[text_of_match][:, None]
            starts = ends - self._key_lengths[key_rows] + 1
            kept = (spaces_before[ends] == spaces_before[starts]) & masks.any(axis=1)
            yield starts[kept], ends[kept], key_rows[kept], masks[kept]

    def _flags(self, n_units: int, matches) -> numpy.ndarray:
        flags = numpy.zeros((n_units, self.n_bits or 1), dtype=bool)
        for starts, ends, _, masks in matches:
            match, channels = numpy.nonzero(masks)
            self._set_block_flags(flags, starts[match], ends[match], channels)
        return _pack_flags(flags)

    @staticmethod
    def _set_block_flags(flags, starts, ends, channels) -> None:
        lengths = ends - starts + 1
        base = channels * BITS_PER_CHANNEL
        single = lengths == 1
        flags[starts[single], base[single] + _S] = True
        starts, ends, lengths, base = starts[~single], ends[~single], lengths[~single], base[~single]
        bucket = numpy.minimum(lengths, LENGTH_BUCKETS + 1) - 2
        flags[starts, base + _B + bucket] = True
        flags[ends, base + _E + bucket] = True
        inner = lengths - 2
        match = numpy.repeat(numpy.arange(len(lengths)), inner)
        offset = numpy.arange(len(match)) - numpy.repeat(numpy.cumsum(inner) - inner, inner)
        flags[starts[match] + 1 + offset, base[match] + _M + bucket[match]] = True

    def _word_slots(self, n_units: int, matches, n_slots: int, probabilities, training: bool) -> numpy.ndarray:
        blocks = list(matches)  # a window's matches: bounded by WINDOW_UNITS and the key lengths
        starts, ends, key_rows, masks = (
            (numpy.concatenate(parts) for parts in zip(*blocks))
            if blocks
            else (numpy.zeros(0, dtype=numpy.int64),) * 3 + (numpy.zeros((0, self.n_channels), dtype=numpy.int64),)
        )
        hashes = numpy.zeros(len(key_rows), dtype=numpy.int64)
        if self.embedded_channel is not None:
            embedded = masks[:, self.embedded_channel] != 0
            word_hashes = self._key_crc32[key_rows].astype(numpy.int64) + 1
            hashes = drop_replaced(numpy.where(embedded, word_hashes, 0), probabilities[key_rows], training)
        tags = self._key_tags[key_rows].astype(numpy.int64)
        return fill_word_slots(n_units, starts, ends - starts + 1, tags, hashes, n_slots)
