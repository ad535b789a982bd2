import re

import numpy
import pytest
import torch

from spacy_cws.nets.gd_transformer import build_gd_transformer_v2
from spacy_cws.nets.pytorch_gd_transformer import GDTransformer
from spacy_cws.nets.wrapped_module import torch_module

SETTINGS = dict(
    width=16, depth=2, n_heads=2, ff_width=32, dropout=0.0, attention_dropout=0.0, sigma=4.0,
    gaussian=True, directional=True, encoders=["centre", "forward", "backward"], fusion="gate",
    position="none", hired=True, highway_input=True, highway_output=True,
)


def _sequences():
    """Three sequences of (unigram, left bigram, right bigram, criterion) ids."""
    unigrams = [[5, 6, 7, 8, 9], [10, 11], [12]]
    return [
        numpy.stack(
            [u, numpy.arange(4, 4 + len(u)), numpy.arange(5, 5 + len(u)), numpy.full(len(u), row % 2)], axis=1
        ).astype("int64")
        for row, u in enumerate(unigrams)
    ]


def _initialized(settings, n_criteria=0):
    model = build_gd_transformer_v2(**settings)
    model.set_dim("nV", 20)
    model.set_dim("nB", 12)
    model.set_dim("nC", n_criteria, force=True)
    model.initialize()
    return model


# The switches of Tables 7-9, each away from the full model (SETTINGS).
ABLATIONS = [
    {"gaussian": False},
    {"directional": False},
    {"encoders": ["forward", "backward"]},
    {"encoders": ["centre"]},
    {"fusion": "sum"},
    {"position": "sinusoidal"},
    {"highway_output": False},
    {"highway_input": False},
    {"hired": False, "highway_input": False, "highway_output": False},
]


def _unused_gate(name, encoders):
    """Whether parameter ``name`` belongs to a fusion gate left without input:
    a view's gate fuses its encoder with the centre one, so it is used only
    when both exist."""
    match = re.search(r"\.fuse_(forward|backward)\.gate\.", name)
    return bool(match) and not {match.group(1), "centre"} <= set(encoders)


@pytest.mark.parametrize("change", [{}, *ABLATIONS, {"bigram_width": 8}])
def test_every_ablation_gives_logits_and_gradients(change):
    """Each switch of Tables 7-9 is a config change giving (H, n + 1, 2) logits,
    and a gradient reaches every parameter the switched model uses."""
    settings = {**SETTINGS, **change}
    model = _initialized(settings)
    scores, backprop = model.begin_update(_sequences())
    n_heads = 2 if settings["highway_output"] else 1
    assert [s.shape for s in scores] == [(n_heads, 6, 2), (n_heads, 3, 2), (n_heads, 2, 2)]
    backprop([numpy.ones_like(s) for s in scores])
    parameters = dict(torch_module(model).named_parameters())
    without_gradient = {name for name, p in parameters.items() if p.grad is None or not p.grad.abs().sum() > 0}
    assert without_gradient == {name for name in parameters if _unused_gate(name, settings["encoders"])}
    assert all(p.requires_grad for p in parameters.values())


def _with_shared_weights(change):
    """The full model and the switched one, every weight they share (same name
    and shape) copied from the full model. RETURNS their (H, n + 1, 2) scores."""
    full = _initialized(SETTINGS)
    switched = _initialized({**SETTINGS, **change})
    shared = torch_module(full).state_dict()
    own = torch_module(switched).state_dict()
    torch_module(switched).load_state_dict(
        {name: shared[name] if name in shared and shared[name].shape == own[name].shape else own[name] for name in own}
    )
    sequences = _sequences()
    return full.predict(sequences), switched.predict(sequences)


@pytest.mark.parametrize("change", [change for change in ABLATIONS if change != {"highway_output": False}])
def test_every_switch_changes_the_decoded_scores(change):
    """The switched model scores the gaps differently even with the full model's
    weights: the switch is not ignored. Head 0 (the final one) is decoded."""
    full, switched = _with_shared_weights(change)
    assert any(not numpy.allclose(a[0], b[0], atol=1e-6) for a, b in zip(full, switched))


def test_highway_output_adds_an_early_head_only():
    """Highway-O adds the early head (trained with its own loss); the final head
    is the same function of the shared weights."""
    full, switched = _with_shared_weights({"highway_output": False})
    assert [len(s) for s in full] == [2, 2, 2] and [len(s) for s in switched] == [1, 1, 1]
    assert all(numpy.allclose(a[0], b[0], atol=1e-6) for a, b in zip(full, switched))
    assert any(not numpy.allclose(a[1], a[0], atol=1e-6) for a in full)


def test_invalid_settings_name_the_setting():
    with pytest.raises(ValueError, match="highway"):
        build_gd_transformer_v2(**{**SETTINGS, "hired": False})
    with pytest.raises(ValueError, match="encoders"):
        build_gd_transformer_v2(**{**SETTINGS, "encoders": ["left"]})
    with pytest.raises(ValueError, match="divisible"):
        build_gd_transformer_v2(**{**SETTINGS, "width": 15})


@pytest.mark.parametrize("bigram_width", [0, 8])
def test_bigram_ids_matter_only_with_a_bigram_table(bigram_width):
    model = _initialized({**SETTINGS, "bigram_width": bigram_width})
    sequences = _sequences()
    changed = [seq.copy() for seq in sequences]
    changed[0][2, 1:3] = [11, 10]
    before, after = model.predict(sequences)[0], model.predict(changed)[0]
    assert numpy.allclose(before, after) == (bigram_width == 0)


@pytest.mark.parametrize("n_criteria", [0, 2])
def test_criterion_matters_only_with_criteria(n_criteria):
    model = _initialized(SETTINGS, n_criteria)
    sequences = _sequences()
    changed = [seq.copy() for seq in sequences]
    changed[0][:, 3] = 1
    before, after = model.predict(sequences)[0], model.predict(changed)[0]
    assert numpy.allclose(before, after) == (n_criteria == 0)


@pytest.mark.parametrize("bigram_width,n_criteria", [(0, 0), (8, 2)])
def test_outputs_do_not_depend_on_batch_padding(bigram_width, n_criteria):
    model = _initialized({**SETTINGS, "bigram_width": bigram_width}, n_criteria)
    together = model.predict(_sequences())
    alone = [model.predict([seq])[0] for seq in _sequences()]
    for a, b in zip(together, alone):
        numpy.testing.assert_allclose(a, b, atol=1e-4)


def test_early_word_ids_follow_early_boundaries():
    # 1 sequence of 4 symbols: T = 6 positions (BOS, 4 symbols, EOS), 5 gaps.
    early = torch.zeros(1, 5, 2)
    early[0, 2, 1] = 1.0  # boundary between symbols 2 and 3 (gap 2)
    word_ids = GDTransformer._early_word_ids(early, torch.tensor([6]))
    # BOS | s1 s2 | s3 s4 | EOS
    assert word_ids.tolist() == [[0, 1, 1, 2, 2, 3]]
