"""Cutting a paragraph's words into sentences, at the full stops.

A sentence ends after a word ending in 。？！ or ；, together with the stops and
closing quotes or brackets right after it (``他说：“好。”`` is one sentence;
``好！！`` too). SIGHAN PKU's training samples are cut at these marks (and
sometimes at ，、), so the People's Daily paragraphs, cut here, can be matched
with them sentence by sentence. Cuts fall between words only: no word is ever
cut, and the sentences' words, joined, are the paragraph's words.
"""
from typing import List

STOPS = frozenset("。？！；")
CLOSERS = frozenset("”’』」）》〉】")
_ENDING = STOPS | CLOSERS


def split_sentences(words: List[str]) -> List[List[str]]:
    """The sentences of one paragraph, as lists of its words in order ([] for no words)."""
    sentences: List[List[str]] = []
    current: List[str] = []
    ended = False  # a stop has been read since the last word of text
    for word in words:
        if ended and word[0] not in _ENDING:
            sentences.append(current)
            current = []
        current.append(word)
        text = word.rstrip("".join(CLOSERS))
        if text:  # a word of closers only keeps the state of the word before
            ended = text[-1] in STOPS
    if current:
        sentences.append(current)
    return sentences
