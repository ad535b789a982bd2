"""Saved weights become the module's weights (nets/module_weights.py):
loaded without a second copy, in the module's dtype, and never partly."""
import io

import numpy
import pytest
import torch
from torch import nn

import srsly
from thinc.api import Linear

from spacy_cws.component_serialization import model_message
from spacy_cws.nets.module_weights import (
    assign_weights,
    build_module,
    load_model_message,
    load_module_weights,
    weights_follow,
)
from spacy_cws.nets.wrapped_module import torch_module

from .test_gd_transformer import SETTINGS, _initialized
from .test_inference_module import _batch, _with_random_weights


class WithUnsavedBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2)
        self.register_buffer("table", torch.arange(4.0), persistent=False)


def test_a_model_built_for_its_saved_weights_predicts_as_the_saved_one():
    """A GD-Transformer saved in float16 (as the shipped pipelines are) and
    loaded into a model built inside weights_follow: float32 weights equal to
    the float16 ones, and the scores of the saved model."""
    saved = _with_random_weights(_initialized(SETTINGS))
    module = torch_module(saved)
    with torch.no_grad():
        for parameter in module.parameters():
            parameter.copy_(parameter.half().float())
    state_bytes = saved.layers[0].shims[0].to_bytes()
    half = {name: tensor.half() for name, tensor in module.state_dict().items()}
    with weights_follow():
        loaded = _initialized(SETTINGS)
    assign_weights(torch_module(loaded), half)
    for name, tensor in torch_module(loaded).state_dict().items():
        assert tensor.dtype == torch.float32 and torch.equal(tensor, module.state_dict()[name]), name
    for got, want in zip(loaded.predict(_batch()), saved.predict(_batch())):
        numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # The thinc path (PyTorchWrapper's deserialize_model) gives the same model.
    with weights_follow():
        again = _initialized(SETTINGS)
    again.layers[0].shims[0].from_bytes(state_bytes)
    for got, want in zip(again.predict(_batch()), saved.predict(_batch())):
        numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_weights_that_do_not_fit_are_an_error_and_unsaved_tensors_are_built():
    module = nn.Linear(3, 2)
    with pytest.raises(ValueError, match="do not fit"):
        assign_weights(module, {"weight": torch.zeros(2, 3)})
    with pytest.raises(ValueError, match="do not fit"):
        assign_weights(module, {"weight": torch.zeros(5, 3), "bias": torch.zeros(2)})
    with torch.device("meta"):
        empty = WithUnsavedBuffer()
    with pytest.raises(ValueError, match="table without data"):
        assign_weights(empty, nn.Linear(3, 2).state_dict(prefix="linear."))
    # A tensor that no saved weight would fill is built as usual, never left uninitialized.
    with weights_follow():
        built = build_module(WithUnsavedBuffer)
    assert torch.equal(built.table, torch.arange(4.0))
    buffer = io.BytesIO()
    torch.save(nn.Linear(3, 2).state_dict(prefix="linear."), buffer)
    assert load_module_weights(built, buffer.getvalue(), torch.device("cpu")) is built


def test_a_model_message_loads_its_torch_weights_first_and_lets_go_of_their_bytes():
    """load_model_message gives the model thinc's from_dict gives (same
    weights and scores), and takes the torch shims' bytes out of the message
    it was given, so they can be freed before the tensors are cast."""
    saved = _with_random_weights(_initialized(SETTINGS))
    msg = model_message(saved, saved.to_bytes())
    assert any(shim_bytes for node_shims in msg["shims"] for shim_bytes in node_shims)
    with weights_follow():
        loaded = _initialized(SETTINGS)
    assert load_model_message(loaded, msg) is loaded
    assert not any(node_shims for node_shims in msg["shims"])
    for name, tensor in torch_module(loaded).state_dict().items():
        assert torch.equal(tensor, torch_module(saved).state_dict()[name]), name
    for got, want in zip(loaded.predict(_batch()), saved.predict(_batch())):
        numpy.testing.assert_array_equal(got, want)
    # A message for another structure is thinc's error, as with from_dict.
    with pytest.raises(ValueError, match="mismatched structure"):
        load_model_message(Linear(2, 3), model_message(saved, saved.to_bytes()))
    # A model without our torch shims loads as from_dict loads it.
    plain = Linear(2, 3).initialize()
    again = load_model_message(Linear(2, 3), srsly.msgpack_loads(plain.to_bytes()))
    numpy.testing.assert_array_equal(again.get_param("W"), plain.get_param("W"))
