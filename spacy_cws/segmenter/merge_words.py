"""Merging a character Doc's tokens into predicted words, in place.

The segmenter edits the Doc it is given (as spaCy's own components do), so
the Doc's identity, ``doc.cats``, user data, ``_context`` (``nlp.pipe(...,
as_tuples=True)``) and earlier annotations survive. spaCy's retokenizer is
quadratic in the number of merges of one ``retokenize()`` block (it checks
each new merge against a list of the earlier ones) and linear in the Doc's
length per block, so the merges are applied in blocks of about the square root
of the Doc's length, from the Doc's end backwards (the token indices before a
block stay valid). Span groups (``doc.spans``) keep their character offsets:
each span is re-anchored to the words that cover it.
"""
import math
from typing import List, Tuple

import numpy
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc, Span, SpanGroup

# Fewest merges in one retokenize() block (a short Doc takes one block).
MIN_BLOCK = 500


def merge_words(doc: Doc, words: numpy.ndarray, component: str) -> None:
    """Merge the tokens of each multi-character word of ``doc`` into one token.

    words: int (n_words, 2) sorted [start, end) character offsets.
    component: the component's name, for the error message.
    RAISES ValueError: if a word does not start and end on token edges (the Doc
        was not made by the character pretokenizer).
    """
    multi = words[words[:, 1] - words[:, 0] > 1]
    if not len(multi):
        return
    firsts, lasts = _token_ranges(doc, multi, component)
    groups = _span_offsets(doc)
    block = max(MIN_BLOCK, math.isqrt(len(doc)) * 4)
    for end in range(len(firsts), 0, -block):
        with doc.retokenize() as retokenizer:
            for first, last in zip(firsts[max(0, end - block) : end], lasts[max(0, end - block) : end]):
                retokenizer.merge(doc[first : last + 1])
    _restore_span_groups(doc, groups)


def _token_ranges(doc: Doc, multi: numpy.ndarray, component: str) -> Tuple[List[int], List[int]]:
    """The first and last token index of each word in ``multi``."""
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
    return first.tolist(), last.tolist()


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
