"""Segmenting texts with a built network, a window of units at a time.

Features and scores are made ``WINDOW_UNITS`` units at a time (unit_windows.py),
so a long text needs scratch memory for one window, not for the whole text;
the words are those of one pass. Within a window the model sequences are
scored in batches of one padded length, of at most ``batch_units`` padded
units (nets/inference_batches.py); the user words' decoding bonus is added to
the scores, and the decoded words of all texts meet the span constraints at
once (span_constraints.py): force-mode user words and the prefer-mode ones the
model cut into unknown pieces (unknown_pieces.py) stay whole.
"""
from itertools import islice
from typing import List, Optional, Sequence, Tuple

import numpy
from thinc.types import Floats3d

from ..decoding.word_spans import decode_words
from ..freed_memory import release_freed_memory
from ..nets.inference_batches import batches_by_padded_length
from .boundary_probabilities import character_gap_probabilities, unit_start_probabilities
from .dictionary_bonus import add_dictionary_bonus
from .featurizer import Featurizer
from .span_constraints import constrained_words
from .unbroken_spans import PatternSpans
from .unit_windows import unit_windows
from .user_words import UserWords

# Units featurized and scored at a time (unit_windows.py); a batch of 256 CTB6
# sentences fits in one window, and the peak memory of one long text grows with
# it (docs/experiments/inference.md, "Windows").
WINDOW_UNITS = 16384


def segment_in_windows(
    texts: List[str],
    ids: Sequence[int],
    featurizer: Featurizer,
    network,
    user_words: UserWords,
    patterns: PatternSpans,
    batch_units: int,
    bonus: float,
    with_probs: bool = False,
) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
    """Segment ``texts`` (Segmenter.segment_with_probs).

    ids: per text its criterion index. network: the inference network (backends/).
    patterns: the spans never cut inside (unbroken_patterns).
    bonus: the user words' decoding bonus in logits (dictionary_bonus.py),
        where ``user_words.prefers_by_bonus()``.
    RETURNS (words, gap_probs): per text int64 (n_words, 2) [start, end)
        character offsets of its words (whitespace is in no word), and with
        ``with_probs`` float32 (max(len(text) - 1, 0),) where element i is the
        probability of a word boundary between text[i] and text[i + 1]: the
        model's (head 0's softmax for gap scores, CRF marginals for B/M/E/S),
        1 next to whitespace, 0 inside a run or a grapheme cluster
        (boundary_probabilities.py; else []). The words may disagree with them where constraints (force-mode
        user words, prefer-mode words kept whole, unbroken spans) overrule
        the model.
    """
    bonus_matches = user_words.bonus_matches(texts)
    views, spans = featurizer.views_and_spans(texts)
    span_starts: List[List[numpy.ndarray]] = [[] for _ in texts]
    span_probs: List[List[numpy.ndarray]] = [[] for _ in texts]
    windows = list(unit_windows([[end - start for start, end in text_spans] for text_spans in spans], WINDOW_UNITS))
    for window in windows:
        window_views = [views[text] for text, _, _ in window]
        window_spans = [spans[text][first:end] for text, first, end in window]
        sequences = featurizer.sequence_features(window_views, window_spans, [ids[text] for text, _, _ in window])
        scores = score_sequences(network, sequences, batch_units)
        if bonus_matches is not None:
            window_matches = [bonus_matches[text] for text, _, _ in window]
            scores = add_dictionary_bonus(scores, window_views, window_spans, window_matches, bonus, network.labels)
        starts = iter(network.decoder.word_starts(scores))
        for text, first, end in window:
            span_starts[text].extend(islice(starts, end - first))
        if with_probs:
            unit_probs = iter(unit_start_probabilities(network.labels, scores, getattr(network.decoder, "crf", None)))
            for text, first, end in window:
                span_probs[text].extend(islice(unit_probs, end - first))
        del sequences, scores, starts
        if len(windows) > 1:
            # A long input: the window's scratch memory goes back to the system,
            # else glibc's heap grows window after window (freed_memory.py).
            release_freed_memory()
    decoded = decode_words(views, spans, span_starts)
    wholes = [
        user_words.whole_spans(text, view, text_words, matches)
        for text, view, text_words, matches in zip(texts, views, decoded, bonus_matches or [None] * len(texts))
    ]
    words = constrained_words(texts, views, decoded, wholes, patterns)
    gap_probs = character_gap_probabilities(texts, views, spans, span_probs) if with_probs else []
    if len(windows) > 1:
        del views, span_starts, span_probs
        release_freed_memory()
    return words, gap_probs


def score_sequences(network, sequences: List[numpy.ndarray], batch_units: int) -> List[Floats3d]:
    """Run the inference network (eval mode, no dropout, no shared mutable
    state) over batches of one padded length, of at most ``batch_units``
    padded units (nets/inference_batches.py).
    RETURNS per sequence its scores as numpy (one host copy per batch)."""
    results: List[Optional[Floats3d]] = [None] * len(sequences)
    for batch in batches_by_padded_length(sequences, batch_units, network.length_multiple):
        for index, score in zip(batch, network.scores([sequences[index] for index in batch])):
            results[index] = score
    return results
