"""The thinc shell of a torch segmentation model, and the padding of its input.

Every segmentation architecture reads the same input: per sequence an int
array (n, 11) of unigram id, left bigram id, right bigram id, criterion id
(segmenter/symbol_ids.py), lexicon flags (lexicon/match_features.py) and six
trigram hashes (segmenter/ngram_hashes.py). This pads a batch of them, with or without BOS/EOS
around each sequence (the GD-Transformer scores the gaps at the edges; a BMES
tagger tags only the characters).
"""
from functools import partial
from typing import Callable, List, Tuple, Type

import numpy
import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v3, xp2torch
from thinc.types import Ints2d

from .symbol_specials import BOS, EOS
from .dropout import set_module_dropout
from .module_weights import build_module, load_module_weights
from .padding import HOST_OPS
from .pytorch_input_features import N_EXTRA_COLUMNS

# Columns of a sequence's feature array.
N_BASE_COLUMNS = 4  # unigram, left bigram, right bigram, criterion
N_FEATURE_COLUMNS = N_BASE_COLUMNS + N_EXTRA_COLUMNS
# At inference a batch's length T is rounded up to a multiple of this. The
# padded positions are masked, so the scores are the same, but batches then
# take few distinct shapes, and oneDNN's primitive cache (one entry per shape)
# is reused instead of growing with the stream: `segment` over 10M characters
# peaks at 1,632 instead of 2,647 MB (docs/experiments/inference.md).
INFERENCE_LENGTH_MULTIPLE = 16


def _rounded_up(length: int) -> int:
    """``length`` rounded up to a multiple of INFERENCE_LENGTH_MULTIPLE."""
    return -(-length // INFERENCE_LENGTH_MULTIPLE) * INFERENCE_LENGTH_MULTIPLE


def padded_length(sequence) -> int:
    """The length a sequence takes in an inference batch: its units plus BOS
    and EOS, rounded up to a multiple of INFERENCE_LENGTH_MULTIPLE. Batching by
    it (spaCy's minibatch_by_padded_size) gives full batches one shape per
    rounded length."""
    return _rounded_up(len(sequence) + 2)


def pad_features(model: Model, X: List[Ints2d], is_train: bool, edges: bool) -> Tuple[ArgsKwargs, callable]:
    """thinc convert_inputs for PyTorchWrapper_v3.

    X: per sequence int (n, 11 + K) with K word slots, or (n, 4) without
        lexicon flags and trigram hashes (they are then 0), all of one width
        and dtype. edges: add BOS and
        EOS around each sequence.
    RETURNS ArgsKwargs of torch int64 tensors (ids (B, T), lengths (B,),
        bigrams (B, T, 2), criteria (B,), extras (B, T, 7 + K)) with T = max n
        (+ 2 with edges; at inference rounded up to a multiple of
        INFERENCE_LENGTH_MULTIPLE), padded on the host (padding.HOST_OPS) and moved to
        torch's default device; padding is PAD = 0 everywhere; and a
        backward callback that returns nothing (integer inputs have no gradient).
    RAISES ValueError (from ops.pad) when the sequences differ in width or dtype.
    """
    offset = 1 if edges else 0
    n = [len(x) for x in X]
    features = HOST_OPS.pad(X)  # (B, max n, 11 + K or 4)
    length = max(n) + 2 * offset
    if not is_train:
        length = _rounded_up(length)
    batch = HOST_OPS.alloc3i(len(X), length, max(N_FEATURE_COLUMNS, features.shape[2]), dtype="int64")
    batch[:, offset : offset + features.shape[1], : features.shape[2]] = features
    if edges:
        batch[:, 0, 0] = BOS
        batch[numpy.arange(len(X)), numpy.asarray(n) + 1, 0] = EOS
    criteria = numpy.asarray([int(seq[0, 3]) if len(seq) else 0 for seq in X], dtype=numpy.int64)
    lengths = numpy.asarray(n, dtype=numpy.int64) + 2 * offset
    ids, bigrams, extras = (batch[..., 0], batch[..., 1:3], batch[..., N_BASE_COLUMNS:])
    args = tuple(xp2torch(numpy.ascontiguousarray(a)) for a in (ids, lengths, bigrams, criteria, extras))
    return ArgsKwargs(args=args, kwargs={}), lambda d_inputs: []


def segmentation_model(
    name: str, module_class: Type[torch.nn.Module], settings: dict, convert_outputs: Callable, edges: bool, **attrs
) -> Model:
    """An outer thinc Model around a torch segmentation module (GDTransformer,
    BMESTagger), built in ``init`` once the segmenter has set the dims nV
    (unigram ids), nB (bigram ids), nC (criteria) and nL (lexicon flags), following
    spacy-experimental's pairwise_bilinear wrapper.

    settings: the module's keyword arguments besides the vocabulary sizes.
    convert_outputs: PyTorchWrapper_v3's, unpadding the module's output.
    edges: whether the input gets BOS/EOS (see pad_features).
    attrs: more model attrs, e.g. labels = "bmes".
    The model's ``attrs["dropout_rate"]`` (at first the ``dropout`` setting;
    ``thinc.api.set_dropout_rate`` sets it) is the torch module's dropout in
    training (dropout.py); ``attrs["torch_module"]`` is the module, once built.
    """
    return Model(
        name,
        _forward,
        init=partial(_init, module_class, convert_outputs, edges),
        dims={"nV": None, "nB": None, "nC": 0, "nL": 0},
        attrs={"settings": settings, "dropout_rate": settings["dropout"], **attrs},
    )


def module_arguments(model: Model) -> dict:
    """The keyword arguments that build the torch module of ``model``: the
    vocabulary sizes (dims nV, nB, nC) and the architecture's settings."""
    return dict(
        n_symbols=model.get_dim("nV"),
        n_bigrams=model.get_dim("nB"),
        n_criteria=model.get_dim("nC"),
        n_lexicon_bits=model.get_dim("nL"),
        **model.attrs["settings"],
    )


def _init(module_class, convert_outputs, edges: bool, model: Model, X=None, Y=None) -> None:
    if model.layers:
        return
    module = build_module(module_class, **module_arguments(model))
    convert_inputs = partial(pad_features, edges=edges)
    model._layers.append(
        PyTorchWrapper_v3(
            module,
            convert_inputs=convert_inputs,
            convert_outputs=convert_outputs,
            deserialize_model=load_module_weights,
        )
    )
    # The wrapper's shim holds the module privately; the segmenter reaches it
    # here (the shim loads weights into this same object).
    model.attrs["torch_module"] = module


def _forward(model: Model, X: List[Ints2d], is_train: bool):
    if not X:
        return [], lambda dY: []
    if is_train:
        set_module_dropout(model.attrs["torch_module"], model.attrs["dropout_rate"])
    return model.layers[0](X, is_train)
