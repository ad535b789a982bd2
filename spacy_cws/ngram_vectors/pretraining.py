"""Learn unigram and bigram vectors with gensim's word2vec (skip-gram).

As Ma et al. 2018 (pretrained character and bigram embeddings, their Table 1)
and Wang & Xu 2017: the unigram sequence and the bigram sequence of each text
are two separate word2vec corpora. Pass only training splits: a dev or test
text (or one from a cross-domain test set) seen here leaks into the model.
"""
from typing import Dict, Iterator, List, Sequence

from ..features.character_view import Normaliser
from .ngram_tokens import ngram_sequences
from .ngram_vectors import MISSING_GENSIM, NgramVectors


class _TokenCorpus:
    """One side (0 = unigrams, 1 = bigrams) of ngram_sequences, re-iterable as
    gensim's corpus_iterable needs (one pass to count, one per epoch). The
    token lists are rebuilt on each pass from the normalised texts: kept,
    they would hold one Python string per character."""

    def __init__(self, symbol_texts: Sequence[str], side: int):
        self.symbol_texts, self.side = symbol_texts, side

    def __iter__(self) -> Iterator[List[str]]:
        for sequences in ngram_sequences(self.symbol_texts):
            yield sequences[self.side]


def pretrain_ngram_vectors(
    texts: Sequence[str],
    normaliser: Normaliser,
    *,
    unigram_width: int,
    bigram_width: int,
    unigram_min_count: int = 2,
    bigram_min_count: int = 3,
    window: int = 5,
    epochs: int = 5,
    seed: int = 0,
    workers: int = 1,
    meta: Dict[str, object] = None,
) -> NgramVectors:
    """Skip-gram word2vec (negative sampling) over the texts' unigrams and,
    separately, their bigrams.

    texts: the raw training texts (any str; whitespace is not a symbol).
    unigram_width, bigram_width: vector sizes; they must equal the model's
        unigram embedding width and its bigram_width.
    *_min_count: the fewest occurrences of a kept unigram or bigram.
    window, epochs, seed, workers: word2vec's.
    meta: provenance stored with the vectors (e.g. the source files).
    RAISES ImportError: without gensim; ValueError: for no symbols at all.
    """
    try:
        from gensim.models import Word2Vec
    except ImportError as err:
        raise ImportError(MISSING_GENSIM) from err
    symbol_texts = [normaliser(text).symbols for text in texts]  # normalised once, read every epoch
    if not any(symbol_texts):
        raise ValueError("the texts have no symbols: pass the raw text of training splits")
    tables = []
    for side, (width, min_count) in enumerate([(unigram_width, unigram_min_count), (bigram_width, bigram_min_count)]):
        model = Word2Vec(
            sentences=_TokenCorpus(symbol_texts, side), vector_size=width, window=window, min_count=min_count,
            sg=1, epochs=epochs, seed=seed, workers=workers,
        )
        tables.append(model.wv)
    normalisation = {"fold_width": normaliser.fold_width, "collapse_runs": normaliser.collapse_runs,
                     "opencc": normaliser.opencc}
    settings = {"window": window, "epochs": epochs, "seed": seed, "unigram_min_count": unigram_min_count,
                "bigram_min_count": bigram_min_count, "algorithm": "word2vec skip-gram (gensim)"}
    return NgramVectors(tables[0], tables[1], normalisation, {**(meta or {}), "word2vec": settings})
