"""The torch modules inside a pipeline's components, named stably across loads."""
from typing import Iterator, Tuple

import torch
from spacy.language import Language
from thinc.api import PyTorchShim

from ..segmenter.network import SegmenterNetwork


def named_torch_modules(nlp: Language) -> Iterator[Tuple[str, torch.nn.Module]]:
    """Yield ``(name, module)`` for every PyTorchShim in ``nlp``'s components.

    The name is ``"{component}.{i}"``, ``i`` counting the shims in the order of
    ``model.walk()``; it is the same for a pipeline and its saved copy, so
    state dicts saved from one can be loaded into the other. A component
    whose saved weights wait in their file (a segmenter loaded to run on ONNX
    Runtime) loads them first.
    """
    for component_name, component in nlp.components:
        network = getattr(component, "network", None)
        if isinstance(network, SegmenterNetwork):
            network.require_weights(component.name)
        model = getattr(component, "model", None)
        if model is None:
            continue
        shims = [shim for node in model.walk() for shim in node.shims if isinstance(shim, PyTorchShim)]
        for i, shim in enumerate(shims):
            yield f"{component_name}.{i}", shim._model
