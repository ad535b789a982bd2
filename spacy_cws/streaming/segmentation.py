"""The words of a stream of texts, lazily and in order, and the output lines
made of them.

A pipeline that only segments (pipeline.sole_segmenter) gives the words of its
segmenter's ``segment_texts`` without building Docs: the same words as its
Docs' (tests/cli/test_segment.py), but a line of 1,000,000 characters needs no
Doc of 1,000,000 character tokens and no Doc of its words. With
``n_process`` > 1 it runs in forked workers that return word offsets
(processes.py). Any other pipeline, and ``n_process`` > 1 where
processes are not forked, runs spaCy's nlp.pipe (see spacy_cws/fork_safety.py)
and reads the words off its Docs.
"""
from collections import deque
from functools import partial
from typing import Callable, Deque, Iterable, Iterator, Optional, Tuple, TypeVar

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ..segmenter.component import Segmenter
from ..segmenter.gap_probs_extension import ScoredText
from ..segmenter.merge_words import SegmentedText
from .formats import FORMATTERS, TAGGED_FORMATTERS, LineFormat
from .lines import InputLine
from .pipeline import sole_segmenter
from .processes import can_fork, segment_in_processes
from .tagging import tagged_lines

T = TypeVar("T")


def words_of_doc(doc: Doc) -> SegmentedText:
    """The Doc's text and the [start, end) character offsets of its
    non-whitespace tokens, int64 (n_words, 2)."""
    offsets = [(token.idx, token.idx + len(token)) for token in doc if not token.is_space]
    return SegmentedText(doc.text, numpy.asarray(offsets, dtype=numpy.int64).reshape(-1, 2))


def segment_lines(nlp: Language, texts: Iterable[str], batch_size: int, n_process: int = 1) -> Iterator[SegmentedText]:
    """Per text, lazily and in order, its words, in batches of ``batch_size``
    texts: by the sole segmenter, its forked workers, or nlp.pipe (see above)."""
    segmenter = sole_segmenter(nlp)
    if segmenter is not None and n_process > 1 and can_fork():
        return segment_in_processes(segmenter, texts, batch_size, n_process)
    if segmenter is None or n_process > 1:
        return map(words_of_doc, nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
    return (
        SegmentedText(text, words)
        for batch in minibatch(texts, size=batch_size)
        for text, words in zip(batch, segmenter.segment_texts(batch))
    )


def line_makers(
    nlp: Language, output_format: LineFormat, tags: bool, batch_size: int, n_process: int = 1
) -> Tuple[Callable[[Iterable[str]], Iterator], Callable[[object], str]]:
    """What segments a stream of texts and what formats each result (for
    output_lines): words only (segment_lines, FORMATTERS), or, with ``tags``
    (tagging.writes_tags), words and tags by nlp.pipe (tagged_lines,
    TAGGED_FORMATTERS)."""
    if tags:
        return partial(tagged_lines, nlp, batch_size=batch_size, n_process=n_process), TAGGED_FORMATTERS[output_format]
    return partial(segment_lines, nlp, batch_size=batch_size, n_process=n_process), FORMATTERS[output_format]


def scored_lines(
    nlp: Language, texts: Iterable[str], batch_size: int, segmenter: Optional[Segmenter] = None
) -> Iterator[ScoredText]:
    """Per text, lazily and in order, its words and gap probabilities.

    segmenter: the Segmenter doing all of ``nlp``'s work (sole_segmenter):
        its ``segment_with_probs`` runs without building Docs; None: nlp.pipe,
        reading ``doc._.gap_probs`` and the Docs' non-space tokens.
    RAISES ValueError: if a Doc has no gap probabilities (no gd_segmenter set them).
    """
    for batch in minibatch(texts, size=batch_size):
        if segmenter is not None:
            words, probs = segmenter.segment_with_probs(batch)
            yield from (ScoredText.of(*parts) for parts in zip(batch, words, probs))
            continue
        for doc in nlp.pipe(batch, batch_size=batch_size):
            if doc._.gap_probs is None:
                raise ValueError("The pipeline sets no doc._.gap_probs: --probs needs a gd_segmenter component")
            yield ScoredText.of(doc.text, words_of_doc(doc).words, doc._.gap_probs)


def output_lines(
    records: Iterable[InputLine],
    segment: Callable[[Iterator[str]], Iterable[T]],
    format_line: Callable[[T], str],
) -> Iterator[str]:
    """Per record, in order, its output line with its line end: ``format_line``
    of what ``segment`` (e.g. segment_lines with its pipeline) gives for the
    records' texts; each line end waits in a queue for its text's words."""
    ends: Deque[str] = deque()

    def texts() -> Iterator[str]:
        for text, end in records:
            ends.append(end)
            yield text

    for segmented in segment(texts()):
        yield format_line(segmented) + ends.popleft()
