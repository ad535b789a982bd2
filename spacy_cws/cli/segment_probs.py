"""``segment --format jsonl --probs``: each line's words with its gap probabilities.

The jsonl record of ``segment`` gains ``"gap_probs"``: per gap between the
line's characters (``len(text) - 1`` numbers, ``doc._.gap_probs``) the
probability of a word boundary there, rounded to 4 decimals
(segmenter/boundary_probabilities.py).
"""
from collections import deque
from typing import Deque, Iterable, Iterator, Tuple

import numpy
from spacy.language import Language
from spacy.util import minibatch

from ..segmenter.gap_probs_extension import ScoredText
from ..segmenter.merge_words import SegmentedText

# Decimals written per probability: 4 tell 0.9999 from 1, and keep a line short.
DECIMALS = 4


def scored_lines(
    nlp: Language, texts: Iterable[str], batch_size: int, segmenter=None
) -> Iterator[ScoredText]:
    """Per text, lazily and in order, its words and gap probabilities.

    segmenter: the Segmenter doing all of ``nlp``'s work (segment.sole_segmenter):
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
            offsets = [(token.idx, token.idx + len(token)) for token in doc if not token.is_space]
            yield ScoredText.of(doc.text, numpy.asarray(offsets, dtype=numpy.int64).reshape(-1, 2), doc._.gap_probs)


def format_jsonl_probs(scored: ScoredText, format_jsonl) -> str:
    """``format_jsonl``'s line (segment.py) with ``"gap_probs": [...]`` added before its closing brace."""
    line = format_jsonl(SegmentedText(scored.text, scored.words))
    probs = ", ".join(f"{p:.{DECIMALS}f}".rstrip("0").rstrip(".") for p in scored.gap_probs.tolist())
    return f'{line[:-1]}, "gap_probs": [{probs}]}}'


def probs_lines(nlp: Language, records: Iterable[Tuple[str, str]], batch_size: int, segmenter, format_jsonl) -> Iterator[str]:
    """Per (text, line end) record its jsonl line with gap probabilities and its line end."""
    ends: Deque[str] = deque()

    def texts() -> Iterator[str]:
        for text, end in records:
            ends.append(end)
            yield text

    for scored in scored_lines(nlp, texts(), batch_size, segmenter):
        yield format_jsonl_probs(scored, format_jsonl) + ends.popleft()
