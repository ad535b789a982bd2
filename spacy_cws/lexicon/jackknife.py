"""The jackknifed training-words lexicon, and how often it misses a word.

With ``jackknife_folds = k`` (gd_segmenter, every architecture) each training
sentence falls into fold ``text_fold(text, k)`` and sees only the training
words of the other k - 1 folds (match_features.py). A training word whose every
occurrence lies in its own fold is then missing from that sentence's lexicon,
just as an out-of-vocabulary word is missing from the full lexicon at test
time. The share of such tokens is the lexicon miss rate the model learns to
expect; the OOV rate of a dev set is the miss rate it will meet. Fewer folds
miss more words (each fold's lexicon holds less of the corpus).
"""
from typing import Dict, Iterable, Set

from spacy.tokens import Doc

from .match_features import EVERY_FOLD, text_fold


def training_word_folds(references: Iterable[Doc], n_folds: int) -> Dict[str, int]:
    """The training-words lexicon channel: each word (a non-space token's
    text) with the bit mask of the folds whose sentences hold it, or
    ``EVERY_FOLD`` for every word when n_folds is 0 (not jackknifed).

    RAISES ValueError: if n_folds is negative.
    """
    if n_folds < 0:
        raise ValueError(f"n_folds must be 0 (no jackknifing) or more, got {n_folds}")
    masks: Dict[str, int] = {}
    for doc in references:
        fold_bit = 1 << text_fold(doc.text, n_folds) if n_folds else EVERY_FOLD
        for token in doc:
            if not token.is_space:
                masks[token.text] = masks.get(token.text, 0) | fold_bit
    return masks


def jackknife_miss_rate(references: Iterable[Doc], n_folds: int) -> float:
    """The share (0-1) of the training tokens (non-space) whose word is
    missing from their own sentence's jackknifed lexicon: every sentence that
    holds the word is in that sentence's fold. 0.0 for n_folds 0 (no
    jackknifing), 1.0 for n_folds 1 (no other fold to see).

    RAISES ValueError: for negative n_folds or no tokens.
    """
    docs = list(references)
    masks = training_word_folds(docs, n_folds)
    missed = total = 0
    for doc in docs:
        own = 1 << text_fold(doc.text, n_folds) if n_folds else None
        for token in doc:
            if not token.is_space:
                total += 1
                missed += masks[token.text] == own
    if not total:
        raise ValueError("no tokens in the training Docs")
    return missed / total


def oov_rate(docs: Iterable[Doc], words: Set[str]) -> float:
    """The share (0-1) of the Docs' non-space tokens whose text is not in ``words``.

    RAISES ValueError: if the Docs have no tokens.
    """
    outside = total = 0
    for doc in docs:
        for token in doc:
            if not token.is_space:
                total += 1
                outside += token.text not in words
    if not total:
        raise ValueError("no tokens in the Docs")
    return outside / total
