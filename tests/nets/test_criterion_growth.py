"""Growing a GD-Transformer for a new criterion (nets/criterion_growth.py): the other criteria compute as before."""
import numpy
import pytest
import torch

from spacy_cws.nets.bmes_tagger import build_bmes_tagger_v2
from spacy_cws.nets.criterion_growth import add_criterion_head, add_criterion_layer, add_first_criteria
from spacy_cws.nets.inference import inference_module, predict_with
from spacy_cws.nets.wrapped_module import torch_module

from .test_gd_transformer import SETTINGS, _initialized, _sequences
from .test_inference_module import _with_random_weights


def with_criterion(sequences, criterion):
    changed = [seq.copy() for seq in sequences]
    for seq in changed:
        seq[:, 3] = criterion
    return changed


def check_growth(settings, grow, key, new_parameters, refusal):
    """Grow criterion 1 of a two-criteria model with ``grow`` (which records it
    under ``key`` of the settings): it computes as before until the new
    parameters (``new_parameters`` of the torch module) move, and then only
    criterion 1 changes, in the model and in its inference copy; growing it
    again is refused with ``refusal``. RETURNS the torch module."""
    model = _with_random_weights(_initialized(settings, n_criteria=2))
    first, second = with_criterion(_sequences(), 0), with_criterion(_sequences(), 1)
    before = [model.predict(first), model.predict(second)]
    grow(model, 1)
    assert model.attrs["settings"][key] == [1]
    for sequences, expected in zip((first, second), before):  # copies of the shared parts
        for got, want in zip(model.predict(sequences), expected):
            numpy.testing.assert_array_equal(got, want)
    module = torch_module(model)
    with torch.no_grad():
        for parameter in new_parameters(module).parameters():
            parameter.add_(0.3)
    for got, want in zip(model.predict(first), before[0]):
        numpy.testing.assert_array_equal(got, want)
    assert not any(numpy.allclose(got, want) for got, want in zip(model.predict(second), before[1]))
    # The inference copy (stacked encoders) builds the new parts from the settings and gives the same scores.
    mixed = [*first[:2], *second[2:]]
    copy = inference_module(model, "float32")
    for got, want in zip(predict_with(copy, model, mixed), model.predict(mixed)):
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match=refusal):
        grow(model, 1)
    return module


@pytest.mark.parametrize(
    "settings", [SETTINGS, {**SETTINGS, "hired": False, "highway_input": False, "highway_output": False}]
)
def test_a_criterion_head_changes_only_its_criterion(settings):
    check_growth(
        settings, add_criterion_head, "criterion_heads", lambda module: module.criterion_heads,
        "cannot give criterion 1 heads of its own",
    )


@pytest.mark.parametrize(
    "settings",
    [
        SETTINGS,
        {**SETTINGS, "depth": 1, "hired": False, "highway_input": False, "highway_output": False},
        {**SETTINGS, "depth": 3, "encoders": ["centre"]},
    ],
)
def test_a_criterion_top_layer_changes_only_its_criterion(settings):
    module = check_growth(
        settings, add_criterion_layer, "criterion_layers", lambda module: module.criterion_layers,
        "cannot give criterion 1 a top layer of its own",
    )
    assert set(module.criterion_layers[0]) == {f"{name}_encoder" for name in settings["encoders"]}


def test_first_criteria_of_zeros_change_nothing():
    model = _with_random_weights(_initialized(SETTINGS))
    before = model.predict(_sequences())
    add_first_criteria(model, 2)
    assert model.get_dim("nC") == 2
    for criterion in (0, 1):
        for got, want in zip(model.predict(with_criterion(_sequences(), criterion)), before):
            numpy.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="has criteria already"):
        add_first_criteria(model, 2)


def test_a_bmes_tagger_is_refused():
    model = build_bmes_tagger_v2(width=16, depth=1, n_heads=2, ff_width=32, dropout=0.0)
    with pytest.raises(ValueError, match="tags B/M/E/S"):
        add_first_criteria(model, 2)
