"""The user's gold segmentation: a UTF-8 file of sentences, words separated by spaces.

A sentence's text is its words joined; the file says where the words of
each line start. Words are separated by runs of whitespace, as in the SIGHAN
files and for the official scorer (two spaces, a U+3000 full-width space):
the segmenter never puts whitespace inside a word, so none is lost. Refused,
naming the file and line: bytes that are not UTF-8; a tab (a file of
columns, such as character<TAB>tag, is not a segmentation); a line whose
every word carries a POS tag (word_NN, word/n); a line whose words do not
tile its text, because a word starts inside a character cluster (a letter
and its combining marks, an emoji sequence: unbroken_spans.py), where no
segmenter can put a boundary. A file where no line holds two words is raw
text, not a segmentation; fewer than ``MIN_SENTENCES`` sentences are too
few to learn a standard from.

A boundary inside a number or a Latin word ("Mr Ian Wilson" in CTB6, a date
and a time in SIGHAN's SXU, whose files drop the space between them) is
kept: the segmenter never cuts there, so that gap is left out of training.
"""
import re
from pathlib import Path
from typing import List, Optional, Sequence, Union

import numpy

from ..corpora.formats import read_text_lines
from ..features.grapheme_clusters import grapheme_clusters

# Fewer gold sentences than this teach too little of a standard (a few hundred are better).
MIN_SENTENCES = 50
# A word with a POS tag: Chinese characters or others, then _TAG or /TAG in Latin letters.
TAGGED_WORD = re.compile(r".+[_/][A-Za-z]{1,4}$")


def read_gold_sentences(path: Union[str, Path], min_sentences: int = MIN_SENTENCES) -> List[List[str]]:
    """The sentences of a gold file, each its words: one sentence a line,
    words separated by whitespace other than tabs; blank lines are skipped
    and a UTF-8 byte order mark at the start is dropped.

    RAISES FileNotFoundError: naming a missing file (IsADirectoryError for a
        folder); ValueError: naming the file and line, for bytes that are not
        UTF-8, a tab, words that all carry POS tags, or words that start
        inside a character cluster (they do not tile the text); naming the file, when
        no line holds two words (not segmented) or it holds fewer than
        ``min_sentences`` sentences.
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"Gold file is a folder, not a file: {path}")
    if not path.is_file():
        raise FileNotFoundError(f"Gold file not found: {path}")
    sentences: List[List[str]] = []
    for number, line in read_text_lines(path):  # CorpusFormatError (a ValueError) names a line not UTF-8
        if number == 1:
            line = line.removeprefix("\ufeff")
        if "\t" in line:
            raise ValueError(
                f"{path}:{number}: holds a tab: a gold sentence is its words separated by spaces, one a line "
                "(convert a file of columns, such as character<TAB>tag, first)"
            )
        words = line.split()
        if len(words) > 1 and all(TAGGED_WORD.match(word) for word in words):
            raise ValueError(f"{path}:{number}: every word carries a POS tag ({words[0]}): drop the tags")
        cut = cut_cluster(words)
        if cut is not None:
            raise ValueError(
                f"{path}:{number}: the words do not tile the text: a word starts inside the character {cut!r} "
                "(a letter with its combining marks, or an emoji sequence), where no boundary can be: join them"
            )
        if words:
            sentences.append(words)
    if sentences and all(len(words) == 1 for words in sentences):
        raise ValueError(
            f"{path}: no line holds two words: the file is raw text, not segmented "
            "(a gold sentence is its words separated by spaces)"
        )
    if len(sentences) < min_sentences:
        raise ValueError(
            f"{path}: {len(sentences)} gold sentences; learning a standard needs at least {min_sentences} "
            "(a few hundred are better)"
        )
    return sentences


def cut_cluster(words: Sequence[str]) -> Optional[str]:
    """The first character cluster (a letter with its combining marks, an
    emoji sequence) that a boundary between ``words`` falls inside, or None."""
    text = "".join(words)
    clusters = grapheme_clusters(text)
    if not len(clusters):
        return None
    bounds = numpy.cumsum([len(word) for word in words])[:-1]
    inside = (clusters[:, :1] < bounds) & (bounds < clusters[:, 1:])
    hits = numpy.flatnonzero(inside.any(axis=1))
    return text[clusters[hits[0], 0] : clusters[hits[0], 1]] if len(hits) else None
