"""Word boundaries as per-character arrays, and the ensemble's decision on them.

A segmentation of a text of n characters is, per character, whether it lies
in a word (whitespace does not), and per gap between characters whether it
is cut (the two characters are not in one word). Numpy only.
"""
from typing import Sequence, Tuple

import numpy

THRESHOLD = 0.5


def word_cuts(n_chars: int, words: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The segmentation of a text of ``n_chars`` characters whose words are ``words``.

    words: int (n_words, 2) sorted, non-overlapping [start, end) character offsets.
    RETURNS (in_word bool (n_chars,), cuts bool (max(n_chars - 1, 0),)): cut i
        lies between characters i and i + 1; a gap next to a character in no word is cut.
    """
    words = numpy.asarray(words, dtype=numpy.int64).reshape(-1, 2)
    cover = numpy.zeros(n_chars + 1, dtype=numpy.int64)
    numpy.add.at(cover, words[:, 0], 1)
    numpy.add.at(cover, words[:, 1], -1)
    in_word = numpy.cumsum(cover)[:n_chars] > 0
    starts = numpy.zeros(n_chars + 1, dtype=bool)
    starts[words[:, 0]] = True
    cuts = starts[1:n_chars] | ~in_word[:-1] | ~in_word[1:] if n_chars else numpy.zeros(0, dtype=bool)
    return in_word, cuts


def words_from_cuts(in_word: numpy.ndarray, cuts: numpy.ndarray) -> numpy.ndarray:
    """The words of a segmentation (the inverse of word_cuts): int64 (n_words, 2)
    [start, end) offsets of the maximal runs of characters in words between cuts."""
    n_chars = len(in_word)
    apart = numpy.ones(n_chars + 1, dtype=bool)  # apart[i]: characters i - 1 and i are in no word together
    apart[1:n_chars] = cuts | ~in_word[:-1] | ~in_word[1:]
    begins = numpy.flatnonzero(in_word & apart[:-1])
    ends = numpy.flatnonzero(in_word & apart[1:]) + 1
    return numpy.stack([begins, ends], axis=1).astype(numpy.int64).reshape(-1, 2)


def mean_decision(
    n_chars: int, member_words: Sequence[numpy.ndarray], member_probs: Sequence[numpy.ndarray]
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The words and mean gap probabilities of an ensemble on one text.

    member_words: per member its int (n_words, 2) words; member_probs: per
        member its float32 (max(n_chars - 1, 0),) doc._.gap_probs.
    A gap is cut where the mean probability is above 0.5 and some member cuts
    it, and wherever every member cuts it; a character is in a word where it
    is in every member's. For members that decode their probabilities
    greedily (gap models: a probability above 0.5 is exactly a cut), this is
    the mean above 0.5; where a member's own constraints overrule its
    probabilities (unbroken patterns such as URLs and numbers, force-mode
    user words, Viterbi decoding of B/M/E/S tags), what all members agree on
    stands. So one member's words are its own, and no word all members keep
    whole is cut.
    RETURNS (words int64 (n_words, 2), mean float32 (max(n_chars - 1, 0),)).
    """
    mean = numpy.mean(numpy.stack(member_probs), axis=0, dtype=numpy.float64).astype(numpy.float32)
    segmentations = [word_cuts(n_chars, words) for words in member_words]
    in_word = numpy.logical_and.reduce([seg[0] for seg in segmentations])
    member_cuts = numpy.stack([seg[1] for seg in segmentations])
    cuts = ((mean > THRESHOLD) & member_cuts.any(axis=0)) | member_cuts.all(axis=0)
    return words_from_cuts(in_word, cuts), mean


def soft_targets(text: str, words: numpy.ndarray, mean: numpy.ndarray) -> numpy.ndarray:
    """The soft gap targets of a text the ensemble segmented: its mean boundary
    probabilities, except that a gap between two characters of words whose
    decision disagrees with the mean (mean_decision let the members'
    constraints stand) gets the decision, 1.0 for a cut and 0.0 for none.

    words: int (n_words, 2) the ensemble's words; mean: float32 (max(len(text) - 1, 0),).
    RETURNS float32 of mean's shape.
    """
    in_word, cuts = word_cuts(len(text), words)
    targets = numpy.array(mean, dtype=numpy.float32)
    inside = in_word[:-1] & in_word[1:] if len(text) else numpy.zeros(0, dtype=bool)
    overruled = inside & ((targets > THRESHOLD) != cuts)
    targets[overruled] = cuts[overruled].astype(numpy.float32)
    return targets
