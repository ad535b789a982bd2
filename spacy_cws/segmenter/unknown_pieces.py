"""Prefer-mode user words kept whole where the model cuts them into a piece no lexicon knows.

In "prefer" mode a user word is a preference, not a rule: its lexicon
features and its decoding bonus shift the model's decisions, and a confident
model still cuts it. Where the model's cut leaves a piece of two or more
units that is no word of any lexicon channel (the training words, jieba's
dictionary, the user words themselves), the model is not choosing between
words it knows: it is cutting inside a name it has never seen. A name mined
from a novel, 田不易, comes out as 田不|易, because 不易 ("not easy") is a
word and the model is sure of its edge, while 田不 is no word at all. Such a
user word is kept whole, where its edges are the model's word edges too
(joining it never cuts one of the model's words in two: a mined phrase
点多才到 stays out of 1点多|才|到). A cut into known words (淡淡|道,
"calmly" and "said") or into single characters is the model's choice and
stays.

What the rule does on ZX: docs/guides/domain-adaptation.md.
"""
from typing import Callable

import numpy

from ..features.character_view import CharacterView


def matches_kept_whole(
    view: CharacterView, words: numpy.ndarray, matches: numpy.ndarray, knows: Callable[[str], bool]
) -> numpy.ndarray:
    """The user-word matches that the model's words cut into a piece no lexicon
    knows, and that begin and end where the model's words do.

    view: the text's units. words: int64 (n, 2), the model's [start, end)
        words in character offsets, sorted. matches: int64 (k, 2), the user
        words' [start, end) matches in the text (UserDictionary.matches).
    knows: whether a string of symbols (the model's view of a word, as
        ``view.symbols`` spells it) is a word of some lexicon channel.
    RETURNS: int64 (k', 2), the matches to keep whole, in the order given.
    """
    kept = numpy.zeros((0, 2), dtype=numpy.int64)
    if not len(matches) or not len(words):
        return kept
    word_starts = words[:, 0]
    # The model's word starts strictly inside each match: the cuts.
    first = numpy.searchsorted(word_starts, matches[:, 0], side="right")
    end = numpy.searchsorted(word_starts, matches[:, 1], side="left")
    # Only a match whose edges are the model's word edges: joining its
    # pieces never cuts a word of the model's in two.
    on_edges = numpy.isin(matches[:, 0], word_starts) & numpy.isin(matches[:, 1], words[:, 1])
    cut = numpy.flatnonzero((end > first) & on_edges)
    if not len(cut):
        return kept
    keep = []
    for index in cut.tolist():
        edges = [int(matches[index, 0]), *word_starts[first[index] : end[index]].tolist(), int(matches[index, 1])]
        units = numpy.searchsorted(view.starts, edges).tolist()  # the unit at or after each edge
        if any(b - a >= 2 and not knows(view.symbols[a:b]) for a, b in zip(units[:-1], units[1:])):
            keep.append(index)
    return matches[keep].astype(numpy.int64, copy=False)
