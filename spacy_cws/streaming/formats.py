"""An output line's text: one line per input line, without its line end.

- ``text``: the line's words separated by one space; input whitespace is
  never a word, so an empty or whitespace-only line gives an empty line.
- ``jsonl``: ``{"text": line, "words": [...], "offsets": [[start, end], ...]}``,
  ``line`` the input line without its line end.
  ``words`` are the non-whitespace words only and ``line[start:end] == word``;
  what lies between them (and before the first, after the last) is the
  input's whitespace, so ``text`` is rebuilt exactly from words and offsets.
  With gap probabilities (``format_jsonl_probs``) the record gains
  ``"gap_probs"``: per gap between the line's characters (``len(text) - 1``
  numbers, ``doc._.gap_probs``) the probability of a word boundary there,
  each the shortest decimal that reads back as the same float32
  (segmenter/boundary_probabilities.py), so that no two probabilities that
  differ print the same.
- With tags (a pipeline that tags, streaming/tagging.py): ``text`` with
  ``--tags`` writes each word as ``word/TAG``, as jieba.posseg prints them;
  ``jsonl`` adds ``"tags"``, one per word.
"""
import json
from enum import Enum
from typing import Callable, Dict, Iterable, Iterator, List

import numpy

from ..segmenter.gap_probs_extension import ScoredText
from ..segmenter.merge_words import SegmentedText
from .tagging import TaggedText

# Words formatted at a time, so that a long line's words never exist as Python
# objects all at once (docs/experiments/inference.md, smaller costs).
FORMAT_BLOCK = 16384


class LineFormat(str, Enum):
    """How a line of input or output holds its text: plain, or a JSON object."""

    text = "text"
    jsonl = "jsonl"


def offset_blocks(words: numpy.ndarray) -> Iterator[List[List[int]]]:
    """The [start, end) offsets of ``words`` (int (n_words, 2)) as Python lists,
    ``FORMAT_BLOCK`` words at a time."""
    for first in range(0, len(words), FORMAT_BLOCK):
        yield words[first : first + FORMAT_BLOCK].tolist()


def format_text(segmented: SegmentedText) -> str:
    """The words separated by one space, as one output line (without its line end)."""
    text, words = segmented
    return " ".join(" ".join([text[start:end] for start, end in block]) for block in offset_blocks(words))


def json_items(arrays: Iterable[list]) -> str:
    """The items of one JSON array made of the concatenated ``arrays``, without
    its brackets, as json.dumps(..., ensure_ascii=False) writes them."""
    return ", ".join(json.dumps(array, ensure_ascii=False)[1:-1] for array in arrays if array)


def format_jsonl(segmented: SegmentedText) -> str:
    """The text, its words and their [start, end) character offsets, as one JSON
    line (without its line end): json.dumps of {"text", "words", "offsets"},
    written a block of words at a time."""
    text, words = segmented
    word_items = json_items([text[start:end] for start, end in block] for block in offset_blocks(words))
    line = (
        f'{{"text": {json.dumps(text, ensure_ascii=False)}, "words": [{word_items}], '
        f'"offsets": [{json_items(offset_blocks(words))}]}}'
    )
    # Chinese stays readable (ensure_ascii=False). json.dumps escapes control
    # characters but not U+0085, U+2028, U+2029, which str.splitlines and some
    # JSON-lines readers take for line ends: escaped, every reader finds one record a line.
    for separator in "\x85\u2028\u2029":
        line = line.replace(separator, f"\\u{ord(separator):04x}")
    return line


def format_jsonl_probs(scored: ScoredText) -> str:
    """``format_jsonl``'s line with ``"gap_probs": [...]`` added before its
    closing brace, each probability the shortest decimal that reads back as
    the same float32 (numpy's str: "0.5", "0.99999994", "1e-08")."""
    line = format_jsonl(SegmentedText(scored.text, scored.words))
    probs = ", ".join(map(str, scored.gap_probs.astype(numpy.float32, copy=False)))
    return f'{line[:-1]}, "gap_probs": [{probs}]}}'


def format_text_tags(tagged: TaggedText) -> str:
    """The words, each as ``word/TAG``, separated by one space (jieba.posseg's
    way), as one output line (without its line end)."""
    text, words, tags = tagged
    return " ".join(f"{text[start:end]}/{tag}" for (start, end), tag in zip(words.tolist(), tags))


def format_jsonl_tags(tagged: TaggedText) -> str:
    """``format_jsonl``'s line with ``"tags": [...]`` (one per word) added before its closing brace."""
    line = format_jsonl(SegmentedText(tagged.text, tagged.words))
    return f'{line[:-1]}, "tags": {json.dumps(tagged.tags, ensure_ascii=False)}}}'


FORMATTERS: Dict[LineFormat, Callable[[SegmentedText], str]] = {
    LineFormat.text: format_text,
    LineFormat.jsonl: format_jsonl,
}

TAGGED_FORMATTERS: Dict[LineFormat, Callable[[TaggedText], str]] = {
    LineFormat.text: format_text_tags,
    LineFormat.jsonl: format_jsonl_tags,
}
