"""Giving a trained GD-Transformer the character LM's features, leaving what it computes as it was.

``add_charlm_features`` attaches a frozen character LM (pytorch_charlm_features.py)
whose projection starts at zero: the features it adds to each position's
input are zeros, so the grown model segments exactly as before until it is
trained on. Training then learns the projection, and with it the rest of the
model adapts to the LM's vectors (Gan & Zhang 2020 section 4.1, "+BERT", as
a continuation of a trained model rather than a run from scratch).
"""
from pathlib import Path
from typing import Sequence

import torch
from thinc.api import Model

from .wrapped_module import torch_module


def add_charlm_features(model: Model, folder: Path, symbols: Sequence[str], layers: int) -> int:
    """Attach the character LM at ``folder`` to a trained GD-Transformer, its
    projection zeros, and record it in the model's attrs and settings (as
    ``spacy-cws.GDTransformer.v4`` with ``charlm_path`` builds it).

    symbols: the segmenter's symbol vocabulary (unigram id = index + 4).
    layers: how many of the LM's last layers are averaged (1 = the top one).
    RETURNS: the most symbols a sequence may hold for the LM (its positions
        less BOS and EOS): the segmenter's max_length must not exceed it.
    RAISES ValueError: for a B/M/E/S tagger, a model that reads an LM already,
        an uninitialized model, or layers outside 1..the LM's depth;
        ImportError: without transformers, naming the extra.
    """
    from .pytorch_charlm_features import CharLMFeatures  # transformers: only for a model with an LM

    if model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(f"The model '{model.name}' tags B/M/E/S: character LM features are added to a GD-Transformer")
    module = torch_module(model)
    if module.charlm is not None:
        raise ValueError(f"The model '{model.name}' reads a character LM already")
    features = CharLMFeatures(str(folder), "".join(symbols), module.width, layers)
    with torch.no_grad():
        features.projection.weight.zero_()
        features.projection.bias.zero_()
    module.charlm = features.to(module.embedding.weight.dtype)
    model.attrs["charlm_path"] = folder
    model.attrs["symbols"] = "".join(symbols)
    model.attrs["settings"]["charlm_layers"] = layers
    return features.max_positions - 2
