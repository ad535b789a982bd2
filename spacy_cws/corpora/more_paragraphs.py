"""Paragraphs of further training files whose text the training file lacks.

People's Daily 1998 comes in two forms here: PFR's January (``199801.txt``,
the ``pku_pfr`` training file, with its held-out days) and five shuffled folds
of January and February (``cv-N-filter_test.txt``), whose January part is a
slightly revised edition of the same paragraphs. Only the folds' February
paragraphs are new text. A revised paragraph is not always the same string as
its original, so a paragraph is taken as known when its character 10-grams
occur in the training file's text, not only when its whole text does: it
joins the training text only where at most ``MAX_KNOWN_SHARE`` of its
10-grams are known. The reference text is the whole training file, held-out
days included, so no revised copy of a held-out paragraph comes back in.
No library matches near-duplicate paragraphs at this size by shared n-grams
without an index of its own, which is what this is.
"""
from pathlib import Path
from typing import Iterable, List, Set

from .formats import SegmentedSentence, read_segmented

NGRAM = 10  # characters: a 10-gram of news text shared by chance is rare
MAX_KNOWN_SHARE = 0.2  # shared dates, places and agency lines stay below it


def _ngrams(text: str) -> Iterable[int]:
    # hash() of the strings: ints, a third of the memory of the 10-grams themselves.
    return (hash(text[start : start + NGRAM]) for start in range(max(1, len(text) - NGRAM + 1)))


def known_ngrams(sentences: Iterable[SegmentedSentence]) -> Set[int]:
    """The hashed character 10-grams of the sentences' texts (a sentence shorter than 10 characters is one)."""
    known: Set[int] = set()
    for sentence in sentences:
        known.update(_ngrams("".join(sentence.words)))
    return known


def unbracketed(words: List[str]) -> List[str]:
    """The words without the ``[`` and ``]`` that the folds keep around a compound name's words
    (``[中央 人民 广播 电台]``), as the ``pfr`` format drops them from PFR's ``[...]nt``."""
    words = [word[1:] if word.startswith("[") else word for word in words]
    words = [word[:-1] if word.endswith("]") else word for word in words]
    return [word for word in words if word]


def new_paragraphs(paths: Iterable[Path], known: Set[int]) -> List[SegmentedSentence]:
    """The paragraphs (lines) of the segmented files ``paths`` (words separated by whitespace, UTF-8)
    of which at most ``MAX_KNOWN_SHARE`` of the 10-grams are in ``known``, their brackets dropped.
    RAISES FileNotFoundError; CorpusFormatError naming the file and line, for bytes that are not UTF-8."""
    found = []
    for path in paths:
        for line in read_segmented(path, "sighan"):
            words = unbracketed(line.words)
            grams = list(_ngrams("".join(words)))
            if words and sum(gram in known for gram in grams) <= MAX_KNOWN_SHARE * len(grams):
                found.append(SegmentedSentence(line.line_no, words))
    return found
