"""What a segmentation model reads of a text: its features, made with numpy only.

The ``gd_segmenter`` component hands texts to a :class:`Featurizer` and the
resulting int64 feature arrays to its network (a backend: torch or ONNX
Runtime); this module imports no torch, so prediction from an exported graph
needs none. The featurizer owns what was learned about the input side: the
symbol and bigram vocabularies (features/symbol_ids.py), the criteria of a
multi-criteria model, and the lexicon channels with the matcher built from
them (lexicon/match_features.py), together with the text's view
(features/character_view.Normaliser) and its cutting into model sequences (features/chunking.py).

Each sequence's features are an int64 array (n, 11 + K) for its n units: the
columns unigram id, left bigram id, right bigram id, criterion id
(features/symbol_ids.py), lexicon flags, six trigram hashes (features/ngram_hashes.py) and the
K word slots of a model with word slots (lexicon/word_slots.py); the padding
of nets/feature_batch.py and nets/padded_inputs.py reads them.
"""
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy
import srsly

from ..features.character_view import CharacterView, Normaliser
from ..features.chunking import chunk_spans
from ..features.ngram_hashes import N_TRIGRAM_COLUMNS, trigram_hashes
from ..features.sequence_layout import SequenceLayout
from ..features.symbol_ids import N_SYMBOL_COLUMNS, SEQUENCE_END, SEQUENCE_START, SymbolIds
from ..features.symbol_specials import BOS
from ..freed_memory import release_freed_memory
from ..saved_messages import array_message, message_array, saved_message
from ..lexicon.channel_storage import (
    channel_counts,
    channel_tags,
    packed,
    unpack_bigrams,
    unpack_channel,
)
from ..lexicon.match_features import EVERY_FOLD, LexiconMatcher, normaliser_signature
from .criteria import criterion_ids

# Where the word slots start in a sequence's features: symbol columns, lexicon flags, trigram hashes.
SLOTS_COLUMN = N_SYMBOL_COLUMNS + 1 + N_TRIGRAM_COLUMNS
# The format of the featurizer's saved data (Featurizer.to_bytes).
DATA_FORMAT = "spacy-cws.featurizer.v1"


def featurizer_data(data: bytes) -> dict:
    """The learned data of a featurizer, from ``Featurizer.to_bytes``: a dict
    of "symbols" (one string, a symbol a character), "bigrams" (the unigram
    ids of the bigram vocabulary's pairs, int (n, 2); pack_bigrams' string in
    featurizers saved before), "criteria" (names), "channels" (packed lexicon channels,
    lexicon/channel_storage.py) and "matcher" (their LexiconMatcher's bytes,
    or None; absent in featurizers saved before it was kept).

    RAISES ValueError: for bytes that are not a saved featurizer.
    """
    msg = saved_message(data, DATA_FORMAT, "featurizer file", "featurizer")
    if "bigram_ids" in msg:
        msg["bigrams"] = message_array(msg.pop("bigram_ids"))
    return msg


def channel_matcher(
    channels: Sequence[Mapping],
    normaliser: Normaliser,
    extra_words: Sequence[str] = (),
    extra_tags: Optional[Mapping[str, str]] = None,
    word_slots: bool = False,
) -> Optional[LexiconMatcher]:
    """The LexiconMatcher of packed channels (None without channels), built
    from their words; for a model with word slots, the "training" channel's
    words are the embedded ones (without, no word is, and the matcher keeps
    no word hashes).
    extra_words, extra_tags: as Featurizer.set_lexicons.
    RAISES ValueError: for more than 4 channels.
    """
    matched = [unpack_channel(channel) for channel in channels]
    if not matched:
        return None
    if extra_words:
        matched[-1].update(dict.fromkeys(extra_words, EVERY_FOLD))
    tags: Dict[str, str] = {}
    for channel in reversed(channels):  # the first channel's tag wins
        tags.update(channel_tags(channel))
    tags.update(extra_tags or {})
    names = [channel["name"] for channel in channels]
    embedded = names.index("training") if word_slots and "training" in names else None  # the words with word embeddings
    counts = channel_counts(channels[embedded]) if embedded is not None else {}
    return LexiconMatcher(matched, normaliser, tags, counts, embedded)


class Featurizer:
    """Features of texts for a segmentation model (see the module docstring).

    normaliser: the model's view of a text (width folding, run collapsing, OpenCC).
    max_length: most units in one model sequence (longer texts are cut, features/chunking.py).
    word_slots: K, the word slot columns of the model (0: none).
    trigrams: whether the model reads trigram hashes (else those columns are 0).
    word_replacement_threshold: the t of Gan & Zhang 2020 (eq. 14) for the word slots in training
        (lexicon/word_slots.py).
    Until set_vocabularies and set_lexicons are called it knows no symbol
    (every unit is UNK) and has no lexicon.
    """

    def __init__(
        self,
        normaliser: Normaliser,
        max_length: int,
        word_slots: int = 0,
        trigrams: bool = False,
        word_replacement_threshold: float = 0.0,
    ):
        self.normaliser = normaliser
        self.max_length = max_length
        self.word_slots = word_slots
        self.trigrams = trigrams
        self.word_replacement_threshold = word_replacement_threshold
        self.symbols: List[str] = []
        self.criteria: List[str] = []
        self.channels: List[dict] = []
        self.symbol_ids = SymbolIds([])
        self.matcher: Optional[LexiconMatcher] = None
        # Whether the matcher holds words or tags beyond the channels' (set_lexicons).
        self._matcher_has_extra = False

    # -- learned data -------------------------------------------------------------

    @property
    def bigrams(self) -> List[Tuple[str, str]]:
        """The bigram vocabulary: (left, right) symbol pairs, id = index + 4."""
        names = [SEQUENCE_START, SEQUENCE_END] + self.symbols  # unigram ids 2, 3, 4, ...
        return [(names[left - BOS], names[right - BOS]) for left, right in self.symbol_ids.pair_unigram_ids().tolist()]

    def set_vocabularies(
        self, symbols: Sequence[str], bigrams: Union[str, Sequence[Sequence[str]], numpy.ndarray]
    ) -> None:
        """symbols: single characters, id = index + 4. bigrams: (left, right)
        pairs, pack_bigrams' string of them (saved by earlier versions), or
        the unigram ids of the pairs (n, 2) (SymbolIds.pair_unigram_ids).

        RAISES ValueError: as SymbolIds, for a symbol that is not one character
            or a bigram of unknown symbols.
        """
        self.symbols = list(symbols)
        # Held as sorted numpy keys only (features/symbol_ids.py), never as a list of pairs.
        pairs = bigrams if isinstance(bigrams, numpy.ndarray) else unpack_bigrams(bigrams)
        self.symbol_ids = SymbolIds(self.symbols, pairs)

    @property
    def lexicons(self) -> List[str]:
        """The names of the lexicon channels (e.g. "training", "jieba")."""
        return [channel["name"] for channel in self.channels]

    def lexicon_words(self, name: str) -> Dict[str, int]:
        """The words of the channel ``name``, each with its fold mask.

        RAISES KeyError: for an unknown name (the caller names the channels).
        """
        for channel in self.channels:
            if channel["name"] == name:
                return unpack_channel(channel)
        raise KeyError(name)

    def set_lexicons(
        self,
        channels: Sequence[Mapping],
        extra_words: Sequence[str] = (),
        extra_tags: Optional[Mapping[str, str]] = None,
        saved_matcher: Optional[bytes] = None,
    ) -> None:
        """Take the stored channels (lexicon/channel_storage.py) and build the matcher.

        extra_words: words that join the last channel in the matcher only (a
            user dictionary in "prefer" mode); its stored channel keeps its own words.
        extra_tags: POS tags that win over the channels' (the user dictionary's).
        saved_matcher: the matcher of these channels as saved (to_bytes), taken
            as it is unless extra words or tags, or another view of the text
            (normaliser_signature), call for a new one.
        Only the packed channels stay in memory; the word dicts live while the
        matcher is built.
        RAISES ValueError: for more than 4 channels (LexiconMatcher), or a
            corrupt saved matcher.
        """
        self.channels = [packed(channel) for channel in channels]
        self._matcher_has_extra = bool(extra_words or extra_tags)
        if saved_matcher is not None and not self._matcher_has_extra:
            matcher = LexiconMatcher.from_bytes(saved_matcher)
            if matcher.signature == normaliser_signature(self.normaliser) and matcher.n_channels == len(self.channels):
                self.matcher = matcher
                return
        self.matcher = channel_matcher(self.channels, self.normaliser, extra_words, extra_tags, bool(self.word_slots))
        release_freed_memory()  # the word dicts and keys just dropped (freed_memory.py)

    @property
    def n_lexicon_bits(self) -> int:
        """The lexicon flag bits of each unit (the model's dim nL)."""
        return self.matcher.n_bits if self.matcher is not None else 0

    def criterion_ids(self, names: Sequence[Optional[str]], default: Optional[str], component: str) -> List[int]:
        """Per text the index of its criterion (criteria.criterion_ids).

        RAISES ValueError: naming the known criteria, for an unknown one.
        """
        return criterion_ids(names, self.criteria, default, component)

    def to_bytes(self) -> bytes:
        """The learned data, msgpack (see featurizer_data): what the
        segmenter saves under its "featurizer" key, with the channels'
        matcher as built (LexiconMatcher.to_bytes), so that loading does not
        rebuild it."""
        matcher = self.matcher
        if matcher is not None and self._matcher_has_extra:  # save the channels' own matcher
            matcher = channel_matcher(self.channels, self.normaliser, word_slots=bool(self.word_slots))
        return srsly.msgpack_dumps(
            {
                "format": DATA_FORMAT,
                "symbols": "".join(self.symbols),
                "bigram_ids": array_message(self.symbol_ids.pair_unigram_ids()),
                "criteria": list(self.criteria),
                "channels": [dict(channel) for channel in self.channels],
                "matcher": matcher.to_bytes() if matcher is not None else None,
            }
        )

    # -- features -----------------------------------------------------------------

    def views_and_spans(self, texts: Sequence[str]) -> Tuple[List[CharacterView], List[List[Tuple[int, int]]]]:
        """Per text its CharacterView and its model sequences' [start, end) unit spans."""
        views = self.normaliser.views(texts)
        return views, [chunk_spans(view.symbols, self.max_length) for view in views]

    def sequence_features(
        self,
        views: Sequence[CharacterView],
        spans: Sequence[Sequence[Tuple[int, int]]],
        ids: Sequence[int],
        folds: Optional[Sequence[int]] = None,
        training: bool = False,
    ) -> List[numpy.ndarray]:
        """Per sequence (flat, in order) the int64 (n, 11 + K) features of its
        symbols: unigram, bigram and criterion ids, lexicon flags, trigram
        hashes and K word slots.

        views: the texts. spans: per text consecutive sequences of it (all of
            them, or a window's: unit_windows.py). ids: per text its criterion index.
        folds: per training text its jackknife fold; None at inference.
        training: whether the word slots replace words by POS (Gan & Zhang 2020, eq. 15).
        """
        # The sequences laid end to end: one numpy pass for the batch.
        layout = SequenceLayout([end - start for text_spans in spans for start, end in text_spans])
        if not layout.n_units:
            return []
        ranges = [(text_spans[0][0], text_spans[-1][1]) if text_spans else (0, 0) for text_spans in spans]
        symbols = "".join(view.symbols[start:end] for view, (start, end) in zip(views, ranges))
        sequence_criteria = numpy.repeat(
            numpy.asarray(ids, dtype=numpy.int64), [len(text_spans) for text_spans in spans]
        )
        # Each block of columns is written into the one feature matrix as it is
        # made (no concatenation: a window's features exist once).
        flags = None
        if self.matcher is not None:  # first: its scratch arrays are gone before the matrix exists
            flags = self.matcher.batch_features(
                [view.symbols for view in views], [view.spaced for view in views], folds, ranges
            )
        features = numpy.zeros((layout.n_units, SLOTS_COLUMN + self.word_slots), dtype=numpy.int64)
        features[:, :N_SYMBOL_COLUMNS] = self.symbol_ids.features(symbols, layout, sequence_criteria)
        if flags is not None:
            features[:, N_SYMBOL_COLUMNS] = numpy.concatenate(flags)
            del flags
        if self.trigrams:
            trigram_hashes(symbols, layout, out=features[:, N_SYMBOL_COLUMNS + 1 : SLOTS_COLUMN])
        if self.word_slots and self.matcher is not None:
            slots = self.matcher.batch_word_slots(
                [view.symbols for view in views],
                [view.spaced for view in views],
                self.word_slots,
                folds,
                ranges,
                self.word_replacement_threshold,
                training,
            )
            features[:, SLOTS_COLUMN:] = numpy.concatenate(slots)
        return layout.split(features)

    def featurize(
        self,
        texts: Sequence[str],
        ids: Sequence[int],
        folds: Optional[Sequence[int]] = None,
        training: bool = False,
    ) -> Tuple[List[CharacterView], List[List[Tuple[int, int]]], List[numpy.ndarray]]:
        """Views, sequence spans per text, and per sequence (flat, in order) its
        features (``sequence_features``). ids: per text its criterion index."""
        views, spans = self.views_and_spans(texts)
        return views, spans, self.sequence_features(views, spans, ids, folds, training)
