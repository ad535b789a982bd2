"""The probability of a word boundary at each gap between characters.

What ``doc._.gap_probs`` holds (gap_probs_extension.py), what
``segment --format jsonl --probs`` writes, and what the self-training filter of
``spacy_cws adapt`` reads (adaptation/self_training.py). Numpy only.

- Gap scores (GD-Transformer, Duan & Zhao 2020): the softmax over the two gap
  classes of head 0, the head the greedy decoder reads
  (decoding/word_start_decoders.GapDecoder), so a probability above 0.5 is exactly a
  decoded boundary.
- B/M/E/S tags with a CRF (Gan & Zhang 2020): the forward-backward marginal of B or S
  at each unit under the CRF's scores and the BMES constraints that Viterbi
  decoding applies (decoding/viterbi.py); without a CRF, the softmax of the unit's
  emissions. A marginal above 0.5 is nearly always Viterbi's choice, not
  always (Viterbi maximises the whole sequence).

Units and characters: a run (a number, a Latin word) or a grapheme cluster is
one unit, never cut inside: its inner gaps are 0. Whitespace forces a
boundary: a gap with whitespace on either side is 1. The first unit of a model
sequence (a long text is cut at clause ends, features/chunking.py) and the edges of a
run that is a word of its own are boundaries (decoding/word_spans.py): 1.
"""
from typing import List, Optional, Sequence, Tuple

import numpy

from ..decoding.viterbi import ALLOWED_ENDS, ALLOWED_STARTS, ALLOWED_TRANSITIONS
from ..features.character_view import CharacterView, laid_end_to_end

_FORBIDDEN = -1e4


def _softmax(scores: numpy.ndarray) -> numpy.ndarray:
    shifted = scores - scores.max(axis=-1, keepdims=True)
    exp = numpy.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def _logsumexp(values: numpy.ndarray, axis: int) -> numpy.ndarray:
    top = values.max(axis=axis, keepdims=True)
    return numpy.squeeze(top, axis=axis) + numpy.log(numpy.exp(values - top).sum(axis=axis))


def bmes_marginals(
    emissions: Sequence[numpy.ndarray], start: numpy.ndarray, transitions: numpy.ndarray, end: numpy.ndarray
) -> List[numpy.ndarray]:
    """Per-unit tag marginals of a linear-chain CRF under the BMES constraints
    (forward-backward in log space, vectorised over the batch like viterbi_bmes).

    emissions: per sequence float (n, 4), n >= 1; start, end: float (4,);
        transitions: float (4, 4), row tag followed by column tag.
    RETURNS per sequence float32 (n, 4): P(tag at unit i = t); rows sum to 1.
    """
    if not emissions:
        return []
    lengths = numpy.array([len(e) for e in emissions])
    batch, length = len(emissions), int(lengths.max())
    padded = numpy.zeros((batch, length, 4), dtype=numpy.float64)
    for row, scores in enumerate(emissions):
        padded[row, : len(scores)] = scores
    trans = numpy.where(ALLOWED_TRANSITIONS, transitions, _FORBIDDEN).astype(numpy.float64)
    alpha = numpy.zeros((batch, length, 4))
    alpha[:, 0] = padded[:, 0] + numpy.where(ALLOWED_STARTS, start, _FORBIDDEN)
    for t in range(1, length):
        alpha[:, t] = _logsumexp(alpha[:, t - 1, :, None] + trans[None], axis=1) + padded[:, t]
    ends = numpy.where(ALLOWED_ENDS, end, _FORBIDDEN)
    beta = numpy.zeros((batch, length, 4))
    rows = numpy.arange(batch)
    beta[rows, lengths - 1] = ends
    for t in range(length - 2, -1, -1):
        stepped = _logsumexp(trans[None] + (padded[:, t + 1] + beta[:, t + 1])[:, None, :], axis=2)
        # A row whose last unit is t keeps its end scores there (set above).
        beta[:, t] = numpy.where((t < lengths - 1)[:, None], stepped, beta[:, t])
    marginals = []
    for row, n in enumerate(lengths):
        joint = alpha[row, :n] + beta[row, :n]
        marginals.append(_softmax(joint).astype(numpy.float32))
    return marginals


def unit_start_probabilities(
    labels: str, scores: Sequence[numpy.ndarray], crf: Optional[Tuple[numpy.ndarray, ...]] = None
) -> List[numpy.ndarray]:
    """Per model sequence float32 (n,): the probability that a word starts at
    each unit; unit 0 (the sequence's edge) is 1.

    labels: "gaps" (scores per sequence (H, n + 1, 2): head 0's softmax) or
        "bmes" (scores per sequence (1, n, 4): CRF marginals with ``crf`` =
        (start, transitions, end), else the softmax, of B + S).
    RAISES ValueError: for other labels.
    """
    if labels == "gaps":
        # One softmax over every sequence's gaps (row by row, so the same values as one per sequence).
        heads = [numpy.asarray(score[0, :-1], dtype=numpy.float32) for score in scores]
        bounds = numpy.cumsum([len(head) for head in heads])[:-1]
        probs = numpy.split(_softmax(numpy.concatenate(heads))[:, 1], bounds) if heads else []
    elif labels == "bmes":
        emissions = [numpy.asarray(score[0], dtype=numpy.float32) for score in scores]
        tags = bmes_marginals(emissions, *crf) if crf is not None else [_softmax(e) for e in emissions]
        probs = [seq_tags[:, 0] + seq_tags[:, 3] for seq_tags in tags]  # B, S
    else:
        raise ValueError(f"A segmentation network predicts 'gaps' or 'bmes' labels, got '{labels}'")
    out = []
    for seq_probs in probs:
        seq_probs = numpy.array(seq_probs, dtype=numpy.float32)
        if len(seq_probs):
            seq_probs[0] = 1.0
        out.append(seq_probs)
    return out


def character_gap_probabilities(
    texts: Sequence[str],
    views: Sequence[CharacterView],
    spans: Sequence[Sequence[Tuple[int, int]]],
    span_probs: Sequence[Sequence[numpy.ndarray]],
) -> List[numpy.ndarray]:
    """Per text float32 (max(len(text) - 1, 0),): element i is the probability
    of a word boundary between text[i] and text[i + 1].

    views: per text its units; spans: per text its [start, end) sequences,
        consecutive and covering all its units (chunking.chunk_spans);
        span_probs: per text, per span float32 (end - start,) from
        unit_start_probabilities.

    All texts in one numpy pass over their characters laid end to end (not
    text by text: docs/experiments/inference.md): the probability of a
    boundary after each character, of which each text keeps all but its last.
    """
    lengths = numpy.fromiter(map(len, texts), dtype=numpy.int64, count=len(texts))
    text_starts = numpy.cumsum(lengths) - lengths
    after = numpy.ones(int(lengths.sum()), dtype=numpy.float32)
    counts = numpy.fromiter(map(len, views), dtype=numpy.int64, count=len(views))
    if counts.any():
        shift = numpy.repeat(text_starts, counts)
        starts = laid_end_to_end(views, "starts") + shift
        ends = laid_end_to_end(views, "ends") + shift
        # Inside a unit (a run, a grapheme cluster): never a boundary.
        inner = ends - starts - 1
        if inner.any():
            offsets = numpy.arange(int(inner.sum())) - numpy.repeat(numpy.cumsum(inner) - inner, inner)
            after[numpy.repeat(starts, inner) + offsets] = 0.0
        unit_probs = numpy.concatenate([probs for text_probs in span_probs for probs in text_probs])
        unit_probs = unit_probs.astype(numpy.float32, copy=False)  # a new array already: no second copy
        unit_probs[laid_end_to_end(views, "spaced") | laid_end_to_end(views, "alone")] = 1.0
        # The gap before unit k is the one after its previous character; next
        # to whitespace it stays 1. (A text's first unit may follow the last
        # character of the text before: that gap is no text's.)
        adjacent = numpy.flatnonzero(ends[:-1] == starts[1:]) + 1
        after[starts[adjacent] - 1] = unit_probs[adjacent]
    return [after[start : start + max(length - 1, 0)] for start, length in zip(text_starts.tolist(), lengths.tolist())]
