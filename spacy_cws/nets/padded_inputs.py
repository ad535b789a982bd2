"""A batch of sequence features padded into a segmentation network's five inputs, with numpy only.

Every network (the torch modules, their ONNX graphs) takes the same padded
arrays; nets/feature_batch.py hands them to torch, the ONNX Runtime
backend (backends/onnx_network.py) to its InferenceSession. A plain module: importing
it needs no torch.
"""
from typing import List, Sequence, Tuple

import numpy
from thinc.api import NumpyOps

from ..features.symbol_specials import BOS, EOS

HOST_OPS = NumpyOps()
# Columns of a sequence's feature array: unigram, left bigram, right bigram,
# criterion, then the extras: lexicon flags and six trigram hashes, then word slots.
N_BASE_COLUMNS = 4
N_EXTRA_COLUMNS = 7  # without word slots; they follow, one column a slot
N_FEATURE_COLUMNS = N_BASE_COLUMNS + N_EXTRA_COLUMNS
# The networks' input names, in their forward's order.
INPUT_NAMES = ("ids", "lengths", "bigrams", "criteria", "extras")
# At inference a batch's length T is rounded up to a multiple of this on
# torch. The padded positions are masked, so the scores are the same, but
# batches then take few distinct shapes, and oneDNN's primitive cache (one
# entry per shape) is reused instead of growing with the stream
# (docs/experiments/inference.md, what made it faster).
INFERENCE_LENGTH_MULTIPLE = 16
# ONNX Runtime's CPU kernels keep no cache per shape, so its batches are
# rounded to a smaller multiple: less padding, with the same words
# (docs/experiments/inference.md, the ONNX Runtime packages).
ONNX_LENGTH_MULTIPLE = 8


def rounded_up(length: int, multiple: int = INFERENCE_LENGTH_MULTIPLE) -> int:
    """``length`` rounded up to a multiple of ``multiple``."""
    return -(-length // multiple) * multiple


def padded_length(sequence, multiple: int = INFERENCE_LENGTH_MULTIPLE) -> int:
    """The length a sequence takes in an inference batch: its units plus BOS
    and EOS, rounded up to a multiple of ``multiple`` (the backend's:
    INFERENCE_LENGTH_MULTIPLE on torch, ONNX_LENGTH_MULTIPLE on ONNX Runtime).
    Batches of one padded length (inference_batches.py) take few shapes."""
    return rounded_up(len(sequence) + 2, multiple)


def padded_inputs(
    X: Sequence[numpy.ndarray], edges: bool, is_train: bool, length_multiple: int = INFERENCE_LENGTH_MULTIPLE
) -> Tuple[numpy.ndarray, ...]:
    """The network inputs of a batch of sequences.

    X: per sequence int (n, 11 + K) with K word slots, or (n, 4) without
        lexicon flags and trigram hashes (they are then 0), all of one width
        and dtype; at least one sequence.
    edges: add BOS and EOS around each sequence (the GD-Transformer scores
        the gaps at the edges; a BMES tagger tags only the units).
    is_train: False rounds the batch length up to a multiple of ``length_multiple``.
    RETURNS C-contiguous int64 arrays (INPUT_NAMES' order): ids (B, T),
        lengths (B,), bigrams (B, T, 2), criteria (B,), extras (B, T, 7 + K),
        with T = max n (+ 2 with edges; rounded up at inference); padding is
        PAD = 0 everywhere.
    RAISES ValueError (from ops.pad) when the sequences differ in width or dtype.
    """
    offset = 1 if edges else 0
    n = [len(x) for x in X]
    features = HOST_OPS.pad(list(X))  # (B, max n, 11 + K or 4)
    length = max(n) + 2 * offset
    if not is_train:
        length = rounded_up(length, length_multiple)
    batch = HOST_OPS.alloc3i(len(X), length, max(N_FEATURE_COLUMNS, features.shape[2]), dtype="int64")
    batch[:, offset : offset + features.shape[1], : features.shape[2]] = features
    if edges:
        batch[:, 0, 0] = BOS
        batch[numpy.arange(len(X)), numpy.asarray(n) + 1, 0] = EOS
    criteria = numpy.asarray([int(seq[0, 3]) if len(seq) else 0 for seq in X], dtype=numpy.int64)
    lengths = numpy.asarray(n, dtype=numpy.int64) + 2 * offset
    ids, bigrams, extras = (batch[..., 0], batch[..., 1:3], batch[..., N_BASE_COLUMNS:])
    return tuple(numpy.ascontiguousarray(a) for a in (ids, lengths, bigrams, criteria, extras))


def unpadded_scores(scores: numpy.ndarray, lengths: Sequence[int], batch_axis: int) -> List[numpy.ndarray]:
    """Per sequence b its part of a network's padded output: Y[..., b, :lengths[b], ...]
    (views), as thinc's ops.unpad after moving the batch axis first and back.

    scores: the batch at ``batch_axis``, the positions right after it: gap
        logits (H, B, T - 1, 2) with batch_axis 1, or emissions (1, B, T, 4).
    """
    index = (slice(None),) * batch_axis
    return [scores[index + (b, slice(0, n))] for b, n in enumerate(lengths)]
