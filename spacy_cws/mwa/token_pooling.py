"""Character vectors -> token vectors: the mean over each token's characters.

Used by the MWA enricher to hand its listeners one vector per token; its
``token_character_positions`` also serves the opposite direction
(token_vectors_to_characters.py). With character tokens
(``spacy-cws.CharPretokenizer.v1``) it picks each character's own vector.
"""
from typing import Callable, List, Tuple

import numpy
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc
from thinc.api import Ops
from thinc.types import Floats2d


def token_character_positions(doc: Doc) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The characters of every token, in token order: int64 positions into
    doc.text and int32 token lengths (trailing whitespace is in no token)."""
    if not len(doc):
        return numpy.zeros((0,), dtype=numpy.int64), numpy.zeros((0,), dtype=numpy.int32)
    table = doc.to_array([IDX, LENGTH]).astype(numpy.int64)
    starts, lengths = table[:, 0], table[:, 1]
    offsets = numpy.arange(lengths.sum()) - numpy.repeat(numpy.cumsum(lengths) - lengths, lengths)
    return numpy.repeat(starts, lengths) + offsets, lengths.astype(numpy.int32)


def chars_to_tokens(ops: Ops, docs: List[Doc], chars: List[Floats2d]) -> Tuple[List[Floats2d], Callable]:
    """Mean over each token's characters (like spacy-transformers' wordpiece
    pooling). chars: per Doc (len(doc.text), width). RETURNS per Doc
    (len(doc), width) and the backprop callback (token -> character gradients;
    whitespace outside tokens gets zero)."""
    alignments = [token_character_positions(doc) for doc in docs]
    outputs = []
    for (positions, lengths), X in zip(alignments, chars):
        if len(lengths):
            outputs.append(ops.reduce_mean(X[ops.asarray(positions)], ops.asarray1i(lengths)))
        else:
            outputs.append(ops.alloc2f(0, X.shape[1]))

    def backprop(d_tokens: List[Floats2d]) -> List[Floats2d]:
        d_chars = []
        for (positions, lengths), X, dY in zip(alignments, chars, d_tokens):
            dX = ops.alloc2f(*X.shape)
            if len(lengths):
                dX[ops.asarray(positions)] = ops.backprop_reduce_mean(dY, ops.asarray1i(lengths))
            d_chars.append(dX)
        return d_chars

    return outputs, backprop
