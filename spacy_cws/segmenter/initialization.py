"""What ``Segmenter.initialize`` learns from the training examples before it
builds the model: the symbol and bigram vocabularies (grown by pretrained
n-gram vectors), the lexicon channels and the criteria.
"""
from collections import Counter
from itertools import chain
from typing import TYPE_CHECKING, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from spacy.training import Example

from ..features.character_view import Normaliser
from ..features.symbol_ids import SymbolIds
from ..lexicon import load_lexicon, training_lexicon
from ..lexicon.channel_storage import pack_channel
from ..lexicon.jackknife import training_word_folds
from ..lexicon.match_features import EVERY_FOLD
from ..lexicon.word_tagger import word_tags
from .criteria import training_criteria

if TYPE_CHECKING:  # imported when used: the module imports without torch
    from ..ngram_vectors import NgramVectors


class InitialData(NamedTuple):
    """What the training examples give a segmenter before its model is built."""

    symbols: List[str]
    bigrams: List[Tuple[str, str]]
    channels: List[dict]  # packed lexicon channels (lexicon/channel_storage.py)
    criteria: List[str]  # [] unless multi-criteria
    vectors: Optional["NgramVectors"]  # the pretrained n-gram vectors, if any


def initial_data(
    get_examples: Callable[[], Iterable[Example]],
    normaliser: Normaliser,
    cfg: dict,
    model_settings: dict,
    component: str,
    training_words: bool,
    sources: Sequence[str],
    vectors_path: Optional[str],
    tagger: Optional[str],
) -> InitialData:
    """The symbol vocabulary (every training symbol, no minimum count, as in
    the paper), with bigram_min_count > 0 the bigram vocabulary
    (training_vocabularies), the lexicon channels (lexicon_channels) and with
    multi_criteria the criteria (criteria.training_criteria) of the training
    examples.

    cfg: the component's settings. model_settings: the model's
        ``attrs["settings"]`` (bigram_width, word_slots).
    training_words: Segmenter.initialize's ``training_lexicon``: give the
        model the training words (the non-space tokens of the reference Docs)
        as a lexicon channel "training" (the closed condition), jackknifed by
        ``jackknife_folds``.
    sources: initialize's ``lexicons``: more lexicon channels, each "jieba"
        (jieba's bundled dict.txt) or the path of a user dictionary ("word
        [freq] [POS]" a line); these are the same in training and at inference.
    vectors_path: initialize's ``ngram_vectors``: a folder written by
        ``python -m spacy_cws ngram-vectors``: the vocabularies grow by its
        unigrams and bigrams, and the embedding tables start from its vectors
        (ngram_vectors/).
    tagger: initialize's ``training_word_tagger``: with word slots and the
        training lexicon, tag every training word with this tagger ("jieba":
        jieba.posseg; lexicon/word_tagger.py); its tags win over the other
        channels'. None: a training word has the tag of the first other
        channel that holds it, else none (class X).
    RAISES ValueError: if there are no characters, the model's bigram_width
        and bigram_min_count disagree (one is 0, the other not), a
        multi-criteria training Doc has no criterion and there is no
        default, the n-gram vectors' normalisation or widths differ from the
        model's, or training_word_tagger is unknown or set without word slots
        and the training lexicon; FileNotFoundError: for a missing vectors folder.
    """
    symbols, bigrams, vectors = training_vocabularies(
        (eg.reference.text for eg in get_examples()),
        normaliser,
        cfg["bigram_min_count"],
        model_settings.get("bigram_width", 0),
        vectors_path,
        component,
    )
    with_tags = bool(model_settings.get("word_slots", 0))
    folds = cfg["jackknife_folds"]
    channels = lexicon_channels(get_examples, training_words, sources, tagger, with_tags, folds, component)
    criteria = []
    if cfg["multi_criteria"]:
        corpora = (eg.reference._.cws_criterion for eg in get_examples())
        criteria = training_criteria(corpora, cfg["criterion"], component)
    return InitialData(symbols, bigrams, channels, criteria, vectors)


def training_vocabularies(
    texts: Iterable[str],
    normaliser: Normaliser,
    min_count: int,
    bigram_width: int,
    vectors_path: Optional[str],
    component: str,
) -> Tuple[List[str], List[Tuple[str, str]], Optional["NgramVectors"]]:
    """The symbol vocabulary (every training symbol, no minimum count, as in
    the paper; the most frequent first), with ``min_count`` > 0 the bigrams
    seen at least that often, both grown by the n-gram vectors at
    ``vectors_path`` (ngram_vectors/), and those vectors (None without a path).

    texts: the training texts, seen through ``normaliser``.
    bigram_width: the model's (0: no bigram embeddings).
    RAISES ValueError: if there are no characters, ``min_count`` and
        ``bigram_width`` disagree (one is 0, the other not), or the vectors'
        normalisation differs from ``normaliser``; FileNotFoundError: for a
        missing vectors folder.
    """
    from ..ngram_vectors import NgramVectors
    from ..ngram_vectors.model_initialization import check_normalisation, extend_vocabularies

    if bool(min_count) != bool(bigram_width):
        raise ValueError(
            f"'{component}' has bigram_min_count = {min_count} but its model has bigram_width = "
            f"{bigram_width}: set both to 0 (unigrams only) or both above 0"
        )
    texts_symbols = [normaliser(text).symbols for text in texts]
    counts = Counter(chain.from_iterable(texts_symbols))
    if not counts:
        raise ValueError(f"'{component}' found no characters in its training examples")
    symbols = sorted(counts, key=lambda s: (-counts[s], s))
    bigrams = SymbolIds(symbols).frequent_bigrams(texts_symbols, min_count) if min_count else []
    vectors = NgramVectors.from_disk(vectors_path) if vectors_path else None
    if vectors is not None:
        check_normalisation(vectors, normaliser, component)
        symbols, bigrams = extend_vocabularies(symbols, bigrams, vectors, with_bigrams=bool(min_count))
    return symbols, bigrams, vectors


def lexicon_channels(
    get_examples: Callable[[], Iterable[Example]],
    training_words: bool,
    sources: Sequence[str],
    tagger: Optional[str],
    with_tags: bool,
    jackknife_folds: int,
    component: str,
) -> List[dict]:
    """The lexicon channels, packed (lexicon/channel_storage.py): with
    ``training_words`` the reference Docs' words ("training", jackknifed in
    ``jackknife_folds`` folds), then one channel per source ("jieba" or a
    user dictionary file).

    tagger: tags the training words (lexicon/word_tagger.py); needs
        ``with_tags`` and ``training_words``.
    with_tags: whether the model has word slots: the channels keep POS tags
        and the training words their counts (word_slots.py).
    RAISES ValueError: for a tagger without word slots or the training lexicon.
    """
    channels = []
    if tagger and not (with_tags and training_words):
        raise ValueError(
            f"'{component}' has training_word_tagger = '{tagger}', which tags the training lexicon for the word "
            "slots: set training_lexicon = true and the model's word_slots > 0, or training_word_tagger = null"
        )
    if training_words:
        references = (eg.reference for eg in get_examples())
        folds = training_word_folds(references, jackknife_folds)
        # The word slots' replacement by POS needs each word's count (word_slots.py).
        counts = tags = None
        if with_tags:
            words = training_lexicon(eg.reference for eg in get_examples())
            counts = {word: entry.frequency for word, entry in words.items()}
            tags = word_tags(words, tagger) if tagger else None
        channels.append(pack_channel("training", folds, tags, counts))
    for source in sources:
        lexicon = load_lexicon(str(source))
        tags = {word: entry.pos for word, entry in lexicon.items()} if with_tags else None
        channels.append(pack_channel(str(source), dict.fromkeys(lexicon, EVERY_FOLD), tags))
    return channels
