"""The CRF of a BMES tagger: its loss and its learned transition scores.

With the CRF decoder the transitions live in the torch module
(pytorch_bmes_tagger.BMESTagger.crf). :func:`crf_loss` computes the CRF
negative log-likelihood in torch, on the device of the module's parameters,
so the transition gradients land on the module (thinc's PyTorchShim applies
every parameter's .grad in finish_update) while the emission gradients go
back through the thinc model as usual. Importing this needs no pytorch-crf.
"""
from typing import List, Optional, Tuple

import numpy
import torch
from thinc.api import Model, torch2xp, xp2torch
from thinc.types import Floats3d, Ints1d

from .padding import length_mask
from .wrapped_module import torch_module


def crf_of(model: Model) -> Optional[torch.nn.Module]:
    """The CRF of a BMES tagger with the CRF decoder; None for any other model."""
    if model.attrs.get("labels") != "bmes" or model.attrs["settings"]["decoder"] != "crf":
        return None
    return torch_module(model).crf


def crf_loss(model: Model, scores: List[Floats3d], tags: List[Ints1d]) -> Tuple[float, List[Floats3d]]:
    """CRF negative log-likelihood of the gold tags, averaged over characters
    (pytorch-crf's forward algorithm), computed where the CRF's parameters
    are. Accumulates the transition gradients on them (applied at the next
    finish_update).

    scores: per sequence (1, n, 4) emissions (the model's arrays, on its device);
    tags: per sequence int (n,) of B/M/E/S.
    RETURNS (loss, d_scores of the same shapes as scores, on the model's device).
    """
    crf = crf_of(model)
    ops = model.ops
    device = crf.transitions.device
    lengths = [len(seq_tags) for seq_tags in tags]
    emissions = xp2torch(ops.pad([score[0] for score in scores]), requires_grad=True, device=device)
    gold = xp2torch(ops.pad([ops.asarray(seq_tags, dtype="int64") for seq_tags in tags]), device=device)
    mask = xp2torch(length_mask(ops, lengths, emissions.shape[1]), device=device)
    with torch.enable_grad():
        loss = -crf(emissions, gold, mask, reduction="sum") / sum(lengths)
        loss.backward()
    d_emissions = ops.unpad(torch2xp(emissions.grad, ops=ops), lengths)
    return float(loss.detach()), [d[None] for d in d_emissions]


def crf_transitions(model: Model) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The learned CRF scores as numpy (decoding runs on the host): start (4,),
    transitions (4, 4) from row tag to column tag, end (4,)."""
    crf = crf_of(model)
    return tuple(p.detach().cpu().numpy() for p in (crf.start_transitions, crf.transitions, crf.end_transitions))
