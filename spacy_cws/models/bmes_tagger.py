"""The thinc wrapper of the BMES taggers, registered as ``spacy-cws.BMESTagger.v1``.

Same input as the GD-Transformer (per sequence int (n, 4): unigram, left and
right bigram, criterion ids) so the ``gd_segmenter`` component runs either;
the model's ``attrs["labels"] = "bmes"`` tells the component to train and
decode B/M/E/S tags instead of gaps. With the CRF decoder the transitions
live in the torch module: :func:`crf_loss` computes the CRF negative
log-likelihood in torch, so their gradients land on the module's parameters
(thinc's PyTorchShim applies every parameter's .grad in finish_update) while
the emission gradients go back through the thinc model as usual.
"""
from typing import List, Optional, Tuple

import numpy
import torch
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, torch2xp, xp2torch
from thinc.types import Floats3d, Ints1d, Ints2d

from .feature_batch import segmentation_model
from .pytorch_bmes_tagger import BMESTagger, validate_tagger_settings
from .wrapped_module import torch_module

InT = List[Ints2d]
OutT = List[Floats3d]


@registry.architectures("spacy-cws.BMESTagger.v1")
def build_bmes_tagger(
    unigram_width: int = 100,
    bigram_width: int = 100,
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.2,
    window: int = 0,
    decoder: str = "crf",
) -> Model[InT, OutT]:
    """The BMES tagger as released in 0.1.0: ``spacy-cws.BMESTagger.v2`` without trigrams."""
    return build_bmes_tagger_v2(
        unigram_width, bigram_width, width, depth, n_heads, ff_width, dropout, window, decoder
    )


@registry.architectures("spacy-cws.BMESTagger.v2")
def build_bmes_tagger_v2(
    unigram_width: int = 100,
    bigram_width: int = 100,
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.2,
    window: int = 0,
    decoder: str = "crf",
    trigram_width: int = 0,
    trigram_rows: int = 0,
) -> Model[InT, OutT]:
    """A Transformer BMES tagger (see pytorch_bmes_tagger.BMESTagger).

    Defaults are Qiu et al. 2020 Table 3 (the multi-criteria Transformer);
    seed 003's SAN-CRF is width 512, depth 2, 8 heads, ff_width 2048,
    unigram/bigram width 50, dropout 0.1, window 5.
    trigram_width, trigram_rows: hashed trigram vectors (0 = none); the
    lexicon flags are used when the segmenter has a lexicon (dim nL).
    Input: per sequence int (n, 11) (models/feature_batch.py). Output: per sequence float (1, n, 4) of
    B/M/E/S emission scores (one head, so the component's per-head loss code
    applies unchanged).
    """
    settings = dict(
        unigram_width=unigram_width,
        bigram_width=bigram_width,
        width=width,
        depth=depth,
        n_heads=n_heads,
        ff_width=ff_width,
        dropout=dropout,
        window=window,
        decoder=decoder,
        trigram_width=trigram_width,
        trigram_rows=trigram_rows,
    )
    validate_tagger_settings(width, depth, n_heads, window, decoder, unigram_width, bigram_width)
    return segmentation_model("bmes_tagger", BMESTagger, settings, _convert_outputs, edges=False, labels="bmes")


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    X, Y_torch = inputs_outputs
    Y = torch2xp(Y_torch)  # (B, T, 4)
    outputs = [Y[None, row, : len(seq)] for row, seq in enumerate(X)]

    def convert_for_torch_backward(dY: OutT) -> ArgsKwargs:
        dY_padded = model.ops.alloc(Y.shape, dtype=Y.dtype)
        for row, d in enumerate(dY):
            dY_padded[row, : d.shape[1]] = d[0]
        return ArgsKwargs(args=(Y_torch,), kwargs={"grad_tensors": xp2torch(dY_padded)})

    return outputs, convert_for_torch_backward


def crf_of(model: Model) -> Optional[torch.nn.Module]:
    """The CRF of a BMES tagger with the CRF decoder; None for any other model."""
    if model.attrs.get("labels") != "bmes" or model.attrs["settings"]["decoder"] != "crf":
        return None
    return torch_module(model).crf


def crf_loss(model: Model, scores: OutT, tags: List[Ints1d]) -> Tuple[float, OutT]:
    """CRF negative log-likelihood of the gold tags, averaged over characters
    (pytorch-crf's forward algorithm). Accumulates the transition gradients on
    the CRF's parameters (applied at the next finish_update).

    scores: per sequence (1, n, 4) emissions; tags: per sequence int (n,) of B/M/E/S.
    RETURNS (loss, d_scores of the same shapes as scores).
    """
    crf = crf_of(model)
    lengths = [len(gold) for gold in tags]
    emissions = numpy.zeros((len(scores), max(lengths), 4), dtype="float32")
    gold = numpy.zeros(emissions.shape[:2], dtype="int64")
    mask = numpy.zeros(emissions.shape[:2], dtype=bool)
    for row, (score, seq_tags) in enumerate(zip(scores, tags)):
        emissions[row, : len(seq_tags)] = model.ops.to_numpy(score[0])
        gold[row, : len(seq_tags)] = seq_tags
        mask[row, : len(seq_tags)] = True
    leaf = torch.tensor(emissions, requires_grad=True)
    with torch.enable_grad():
        loss = -crf(leaf, torch.from_numpy(gold), torch.from_numpy(mask), reduction="sum") / sum(lengths)
        loss.backward()
    d_emissions = leaf.grad.numpy()
    d_scores = [model.ops.asarray(d_emissions[None, row, :n]) for row, n in enumerate(lengths)]
    return float(loss.detach()), d_scores


def crf_transitions(model: Model) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The learned CRF scores as numpy: start (4,), transitions (4, 4) from
    row tag to column tag, end (4,)."""
    crf = crf_of(model)
    return tuple(p.detach().cpu().numpy() for p in (crf.start_transitions, crf.transitions, crf.end_transitions))
