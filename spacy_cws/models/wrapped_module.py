"""Reaching the torch module inside a segmentation model's thinc wrapper."""
import torch
from thinc.api import Model


def torch_module(model: Model) -> torch.nn.Module:
    """The torch module of an initialized segmentation model (GDTransformer.v1
    or BMESTagger.v1: an outer Model whose only layer is a PyTorchWrapper_v2).

    RAISES ValueError: if the model is not initialized yet.
    """
    if not model.layers:
        raise ValueError(f"The model '{model.name}' is not initialized: its torch module is built in initialize")
    return model.layers[0].shims[0]._model
