"""Splitting the words a word list lacks into words it holds.

SIGHAN 2005 PKU's training set is a revision of People's Daily January 1998
(PFR): a PFR word type that its official training word list lacks occurs
nowhere in it as a word, so SIGHAN split it wherever it occurs (放在 -> 放 在,
更是 -> 更 是, 党委书记 -> 党委 书记). Such a word is split into the fewest
listed words, when exactly one split has that few; a word with no split into
listed words, or more than one, is kept whole (it is never guessed).
"""
from typing import Dict, Iterable, List, Set, Tuple

from .formats import SegmentedSentence


class ListedWords:
    """A word list and the splits of the words it lacks (cached per word)."""

    def __init__(self, words: Set[str]):
        self.words = words
        self._splits: Dict[str, List[str]] = {}

    def split(self, word: str) -> List[str]:
        """``word`` as listed words: [word] when listed or when no single fewest-piece split exists."""
        if word in self.words:
            return [word]
        if word not in self._splits:
            self._splits[word] = self._fewest_pieces(word)
        return self._splits[word]

    def _fewest_pieces(self, word: str) -> List[str]:
        # best[end]: (pieces, number of splits with that few, capped at 2, one such split) of word[:end].
        best: List[Tuple[int, int, List[str]]] = [(0, 1, [])] + [(len(word) + 1, 0, [])] * len(word)
        for end in range(1, len(word) + 1):
            for start in range(end):
                pieces, ways, split = best[start]
                if not ways or word[start:end] not in self.words:
                    continue
                if pieces + 1 < best[end][0]:
                    best[end] = (pieces + 1, ways, split + [word[start:end]])
                elif pieces + 1 == best[end][0]:
                    best[end] = (best[end][0], min(2, best[end][1] + ways), best[end][2])
        _, ways, split = best[-1]
        return split if ways == 1 else [word]


def split_unlisted_words(
    sentences: Iterable[SegmentedSentence], listed: ListedWords
) -> Tuple[List[SegmentedSentence], int]:
    """The sentences with every word ``listed`` lacks split (see the module
    docstring), and how many words were split. The characters are unchanged."""
    out: List[SegmentedSentence] = []
    split_words = 0
    for sentence in sentences:
        words: List[str] = []
        for word in sentence.words:
            pieces = listed.split(word)
            split_words += len(pieces) > 1
            words.extend(pieces)
        out.append(SegmentedSentence(sentence.line_no, words))
    return out, split_words
