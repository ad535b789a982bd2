"""Turning a character Doc's tokens into the predicted words, in place.

The segmenter edits the Doc it is given (as spaCy's own components do), so
the Doc's identity, ``doc.cats``, user data, ``_context`` (``nlp.pipe(...,
as_tuples=True)``), user hooks and earlier annotations survive. Span groups
(``doc.spans``) keep their character offsets: each span is re-anchored to the
words that cover it. There are two ways, giving the same tokens:

- A Doc that holds only characters (no token-level annotation and no tensor:
  every Doc straight from the character pretokenizer) is rebuilt in place:
  ``Doc.__init__`` runs again on the same object with the words and spaces,
  and the Doc-level state is put back. spaCy has no public way to replace a
  Doc's tokens in place other than the retokenizer, which is several times
  slower (docs/experiments/inference.md).
- Any other Doc goes through spaCy's retokenizer, which carries token
  annotations (tags, entities, tensor rows) into the merged tokens. The
  retokenizer is quadratic in the number of merges of one ``retokenize()``
  block (it checks each new merge against a list of the earlier ones) and
  linear in the Doc's length per block, so the merges are applied in blocks
  of about the square root of the Doc's length, from the Doc's end backwards
  (the token indices before a block stay valid).
"""
import math
from typing import List, NamedTuple, Optional, Tuple

import numpy
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc, Span, SpanGroup

from .doc_from_spans import words_and_spaces

# Fewest merges in one retokenize() block (a short Doc takes one block).
MIN_BLOCK = 500
# Token-level annotations that only the retokenizer carries into merged tokens.
# (Sentence starts are read from the array: has_annotation counts any one-token
# Doc, and any Doc with a "sents" hook, as sentenced.)
TOKEN_ANNOTATIONS = ("TAG", "POS", "MORPH", "LEMMA", "DEP", "ENT_IOB")
# The Doc-level state that Doc.__init__ resets and rebuild_in_place puts back
# (user_data is handed to __init__ itself; spans are re-anchored).
DOC_STATE = (
    "cats",
    "_context",
    "user_hooks",
    "user_token_hooks",
    "user_span_hooks",
    "sentiment",
    "has_unknown_spaces",
    "_vector",
    "_vector_norm",
    "noun_chunks_iterator",
)


class SegmentedText(NamedTuple):
    """A text and its predicted words (the segmenter's ``predict`` gives one
    per Doc, so ``set_annotations`` need not rebuild the Doc's text).

    words: int64 (n_words, 2) sorted [start, end) character offsets of every
        non-whitespace word of ``text``.
    """

    text: str
    words: numpy.ndarray


def merge_words(doc: Doc, words: numpy.ndarray, component: str, text: Optional[str] = None) -> None:
    """Make each word of ``doc`` one token, in place.

    words: int (n_words, 2) sorted [start, end) character offsets of every
        non-whitespace word (from the segmenter's ``predict``).
    component: the component's name, for the error message.
    text: ``doc.text`` where the caller has it (building it costs a Token
        object per token); None to read it from the Doc.
    RAISES ValueError: if a word does not start and end on token edges (the Doc
        was not made by the character pretokenizer), or ``text`` is not as
        long as the Doc's text.
    """
    if not len(doc):
        return
    text = doc.text if text is None else text
    last = doc[-1]
    if len(text) != last.idx + len(last.text_with_ws):
        raise ValueError(f"The text given for a Doc of {len(doc)} tokens is not its text: {text[:20]!r}")
    # Per Doc, every numpy or Doc call costs microseconds (a CTB6 sentence is
    # 44 characters), so the common Doc, a token per character, takes the
    # fewest: as many tokens as characters means every token is one character
    # with no trailing space, so every word starts and ends on token edges.
    by_character = len(doc) == len(text)
    if by_character and len(words) == len(doc):
        return  # every character a word of its own
    # Elsewhere the words' tokens are looked up first (and checked).
    ranges = None if by_character else _token_ranges(doc, words, component)
    if ranges is not None and not len(ranges[0]):
        return  # no word of two characters or more
    groups = _span_offsets(doc)
    if holds_only_characters(doc):
        rebuild_in_place(doc, words, text)
    else:
        merge_with_retokenizer(doc, *(ranges or _character_ranges(words)))
    _restore_span_groups(doc, groups)


def holds_only_characters(doc: Doc, annotations: Optional[numpy.ndarray] = None) -> bool:
    """Whether ``doc`` has no token-level annotation and no tensor, so that
    rebuilding it from its words loses nothing.

    annotations: ``doc.to_array([*TOKEN_ANNOTATIONS, "SENT_START"])`` where
        the caller has it.
    """
    if doc.tensor is not None and doc.tensor.size:
        return False
    if annotations is None:
        # One to_array for all of them: Doc.has_annotation loops over the tokens once per attribute.
        annotations = doc.to_array([*TOKEN_ANNOTATIONS, "SENT_START"])
    return not annotations[:, :-1].any() and not annotations[1:, -1].any()


def rebuild_in_place(doc: Doc, words: numpy.ndarray, text: str) -> None:
    """Replace the tokens of ``doc`` by ``words`` (and the whitespace between
    them) on the same Doc object, keeping its Doc-level state. Span groups
    are left for the caller to re-anchor.

    words: int (n_words, 2) sorted [start, end) offsets of every non-whitespace word.
    text: the Doc's text (the caller checked its length).
    """
    state = {name: getattr(doc, name) for name in DOC_STATE}
    tokens, spaces = words_and_spaces(text, words)
    doc.__init__(doc.vocab, words=tokens, spaces=spaces, user_data=doc.user_data)
    for name, value in state.items():
        setattr(doc, name, value)


def merge_with_retokenizer(doc: Doc, firsts: numpy.ndarray, lasts: numpy.ndarray) -> None:
    """Merge tokens ``firsts[i]..lasts[i]`` (inclusive) into one token each
    with spaCy's retokenizer, in blocks from the Doc's end."""
    firsts, lasts = firsts.tolist(), lasts.tolist()
    block = max(MIN_BLOCK, math.isqrt(len(doc)) * 4)
    for end in range(len(firsts), 0, -block):
        with doc.retokenize() as retokenizer:
            for first, last in zip(firsts[max(0, end - block) : end], lasts[max(0, end - block) : end]):
                retokenizer.merge(doc[first : last + 1])


def _character_ranges(words: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The first and last token index of each word of two characters or
    more, in a Doc of a token per character: int64 (m,) twice."""
    multi = words[words[:, 1] - words[:, 0] > 1]
    return multi[:, 0], multi[:, 1] - 1


def _token_ranges(doc: Doc, words: numpy.ndarray, component: str) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The first and last token index of each word of two characters or
    more: int64 (m,) twice. RAISES ValueError: if such a word does not start
    and end on token edges."""
    multi = words[words[:, 1] - words[:, 0] > 1]
    offsets = doc.to_array([IDX, LENGTH]).astype(numpy.int64).reshape(-1, 2)
    token_starts, token_ends = offsets[:, 0], offsets[:, 0] + offsets[:, 1]
    first = numpy.searchsorted(token_starts, multi[:, 0])
    last = numpy.searchsorted(token_ends, multi[:, 1])
    aligned = (first < len(doc)) & (last < len(doc))
    aligned[aligned] &= (token_starts[first[aligned]] == multi[aligned, 0]) & (
        token_ends[last[aligned]] == multi[aligned, 1]
    )
    if not aligned.all():
        start, end = multi[numpy.flatnonzero(~aligned)[0]].tolist()
        raise ValueError(
            f"'{component}' found tokens that are not single characters in "
            f"'{doc.text[start:end]}': use the tokenizer "
            "'spacy-cws.CharPretokenizer.v1' before this component."
        )
    return first, last


def _span_offsets(doc: Doc) -> List[Tuple[str, dict, List[tuple]]]:
    """Per span group: its name, attrs and spans as (start_char, end_char, label, kb_id, id)."""
    return [
        (name, dict(group.attrs), [(s.start_char, s.end_char, s.label, s.kb_id, s.id) for s in group])
        for name, group in doc.spans.items()
    ]


def _restore_span_groups(doc: Doc, groups: List[Tuple[str, dict, List[tuple]]]) -> None:
    """Rebuild each span group on the merged tokens: a span covers the words
    that hold its first and last character (an empty span stays empty)."""
    if not groups:
        return
    offsets = doc.to_array([IDX, LENGTH]).astype(numpy.int64).reshape(-1, 2)
    token_starts, token_ends = offsets[:, 0], offsets[:, 0] + offsets[:, 1]
    for name, attrs, spans in groups:
        rebuilt = []
        for start_char, end_char, label, kb_id, span_id in spans:
            start = max(0, int(numpy.searchsorted(token_starts, start_char, side="right")) - 1)
            end = int(numpy.searchsorted(token_ends, end_char, side="left")) + 1 if end_char > start_char else start
            rebuilt.append(Span(doc, start, end, label=label, kb_id=kb_id, span_id=span_id))
        doc.spans[name] = SpanGroup(doc, name=name, attrs=attrs, spans=rebuilt)
