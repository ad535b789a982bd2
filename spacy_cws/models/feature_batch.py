"""Padding the segmenter's per-sequence features into the tensors a torch model takes.

Every segmentation architecture reads the same input: per sequence an int
array (n, 4) of unigram id, left bigram id, right bigram id and criterion id
(segmenter/symbol_ids.py). This pads a batch of them, with or without BOS/EOS
around each sequence (the GD-Transformer scores the gaps at the edges; a BMES
tagger tags only the characters).
"""
from typing import List, Tuple

from thinc.api import ArgsKwargs, Model, xp2torch
from thinc.types import Ints2d

from .pytorch_gd_transformer import BOS, EOS


def pad_features(model: Model, X: List[Ints2d], is_train: bool, edges: bool) -> Tuple[ArgsKwargs, callable]:
    """thinc convert_inputs for PyTorchWrapper_v2.

    X: per sequence int (n, 4). edges: add BOS and EOS around each sequence.
    RETURNS ArgsKwargs of torch int64 tensors (ids (B, T), lengths (B,),
        bigrams (B, T, 2), criteria (B,)) with T = max n (+ 2 with edges);
        padding is PAD = 0 everywhere; and a backward callback that returns
        nothing (integer inputs have no gradient).
    """
    ops = model.ops
    offset = 1 if edges else 0
    lengths = [len(x) + 2 * offset for x in X]
    ids = ops.alloc2i(len(X), max(lengths), dtype="int64")
    bigrams = ops.alloc3i(len(X), max(lengths), 2, dtype="int64")
    for row, seq in enumerate(X):
        ids[row, offset : len(seq) + offset] = seq[:, 0]
        bigrams[row, offset : len(seq) + offset] = seq[:, 1:3]
        if edges:
            ids[row, 0] = BOS
            ids[row, len(seq) + 1] = EOS
    criteria = ops.asarray1i([int(seq[0, 3]) if len(seq) else 0 for seq in X], dtype="int64")
    lengths_arr = ops.asarray1i(lengths, dtype="int64")
    args = (xp2torch(ids), xp2torch(lengths_arr), xp2torch(bigrams), xp2torch(criteria))
    return ArgsKwargs(args=args, kwargs={}), lambda d_inputs: []
