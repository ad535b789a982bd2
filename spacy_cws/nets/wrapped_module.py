"""Reaching the torch module inside a segmentation model's thinc shell."""
import torch
from thinc.api import Model


def torch_module(model: Model) -> torch.nn.Module:
    """The torch module of an initialized segmentation model (GDTransformer,
    BMESTagger: built by feature_batch.wrap_module, which keeps it in
    ``attrs["torch_module"]``).

    RAISES ValueError: if the model is not initialized yet.
    """
    if "torch_module" not in model.attrs:
        raise ValueError(f"The model '{model.name}' is not initialized: its torch module is built in initialize")
    return model.attrs["torch_module"]
