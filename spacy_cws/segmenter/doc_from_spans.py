"""Docs from word spans in time linear in the text's length.

spaCy's ``get_words_and_spaces`` re-slices the remaining text for every word
and the retokenizer's merges rescan the Doc, both quadratic: a 1,000,000-
character text would take hours. Segmentation knows each word's [start, end)
offsets, so the words and spaces are built here in one pass, exactly as
``get_words_and_spaces`` would give them.
"""
from typing import List, Tuple

import numpy
from spacy.tokens import Doc
from spacy.vocab import Vocab


def words_and_spaces(text: str, spans: numpy.ndarray) -> Tuple[List[str], List[bool]]:
    """The tokens of ``text`` whose words are at ``spans``, as Doc(words, spaces) takes them.

    spans: int (n_words, 2), sorted, non-overlapping [start, end) character
        offsets of the non-whitespace words; only whitespace lies outside them.
    A single space after a word becomes its trailing whitespace; other
    whitespace becomes whitespace tokens, as spaCy's get_words_and_spaces does.
    RETURNS: (words, spaces), whose concatenation with the spaces is ``text``.
    """
    if len(spans) and spans[0, 0] == 0 and spans[-1, 1] == len(text) and (spans[1:, 0] == spans[:-1, 1]).all():
        # The words cover the text end to end (most Chinese text: no whitespace).
        if len(spans) == len(text):
            return list(text), [False] * len(text)
        return [text[start:end] for start, end in spans.tolist()], [False] * len(spans)
    words, spaces = [], []
    position = 0
    for start, end in spans.tolist():
        if start > position:
            words.append(text[position:start])
            spaces.append(False)
        words.append(text[start:end])
        spaces.append(False)
        position = end
        if position < len(text) and text[position] == " ":
            spaces[-1] = True
            position += 1
    if position < len(text):
        words.append(text[position:])
        spaces.append(False)
    return words, spaces


def doc_from_spans(vocab: Vocab, text: str, spans: numpy.ndarray) -> Doc:
    """A Doc of ``text`` whose tokens are the words at ``spans`` and the
    whitespace between them (see :func:`words_and_spaces`)."""
    words, spaces = words_and_spaces(text, spans)
    return Doc(vocab, words=words, spaces=spaces)
