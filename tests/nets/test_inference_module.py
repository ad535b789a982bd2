"""The inference copy of a segmentation model (nets/inference.py) gives the trained model's scores."""
import numpy
import pytest
import torch

from spacy_cws.nets.bmes_tagger import build_bmes_tagger_v2
from spacy_cws.nets import inference
from spacy_cws.nets.inference import check_precision, inference_module, predict_with, resolve_precision
from spacy_cws.nets.pytorch_fused_gd import FusedGDTransformer
from spacy_cws.nets.wrapped_module import torch_module

from .test_gd_transformer import ABLATIONS, SETTINGS, _initialized


def _batch():
    """Sequences of different lengths (so the batch is padded), random ids >= 4."""
    rng = numpy.random.default_rng(0)
    lengths = [9, 1, 4, 7, 2]
    return [
        numpy.stack(
            [rng.integers(4, 20, n), rng.integers(4, 12, n), rng.integers(4, 12, n), numpy.zeros(n, int)], axis=1
        ).astype("int64")
        for n in lengths
    ]


def _with_random_weights(model):
    """Non-trivial weights everywhere (LayerNorm and biases start at 1 and 0),
    the same in every run (unseeded, the bfloat16 tolerance failed about one run in ten)."""
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for parameter in torch_module(model).parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.5)
    return model


@pytest.mark.parametrize("change", [{}, *ABLATIONS, {"bigram_width": 8}, {"dropout": 0.5, "attention_dropout": 0.5}])
def test_fused_gd_transformer_gives_the_trained_scores(change):
    """Stacked encoders, cached attention factors and matmul pooling = the eval-mode GDTransformer."""
    model = _with_random_weights(_initialized({**SETTINGS, **change}))
    module = inference_module(model, "float32")
    assert isinstance(module, FusedGDTransformer) and not hasattr(module, "encoders")
    expected = model.predict(_batch())
    for got, want in zip(predict_with(module, model, _batch()), expected):
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    # One sequence alone gives the scores it has in the padded batch.
    alone = predict_with(module, model, _batch()[:1])[0]
    numpy.testing.assert_allclose(alone, expected[0], rtol=1e-4, atol=1e-4)


def test_bfloat16_copy_is_close_and_leaves_the_model_float32():
    model = _with_random_weights(_initialized(SETTINGS))
    module = inference_module(model, "bfloat16")
    assert module.stacked_layers[0].qkv.weight.dtype == torch.bfloat16
    assert all(p.dtype == torch.float32 for p in torch_module(model).parameters())
    for got, want in zip(predict_with(module, model, _batch()), model.predict(_batch())):
        assert got.dtype == numpy.float32
        numpy.testing.assert_allclose(got, want, atol=0.1 * numpy.abs(want).max())


def _bmes_tagger():
    model = build_bmes_tagger_v2(
        unigram_width=8, bigram_width=4, width=16, depth=2, n_heads=2, ff_width=32, dropout=0.3, window=2
    )
    model.set_dim("nV", 20)
    model.set_dim("nB", 12)
    model.initialize()
    return model


def test_bmes_tagger_copy_gives_the_trained_scores():
    model = _bmes_tagger()
    module = inference_module(model, "float32")
    for got, want in zip(predict_with(module, model, _batch()), model.predict(_batch())):
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    # bfloat16 runs in bfloat16 throughout (its float32 positions once made the
    # encoder see float32 input and fail).
    for got, want in zip(predict_with(inference_module(model, "bfloat16"), model, _batch()), model.predict(_batch())):
        assert got.dtype == numpy.float32
        numpy.testing.assert_allclose(got, want, atol=0.1 * numpy.abs(want).max())


def test_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="bfloat16"):
        check_precision("float16")
    with pytest.raises(ValueError, match="auto"):
        resolve_precision("float16")


@pytest.mark.parametrize("native, dtype", [(True, torch.bfloat16), (False, torch.float32)])
def test_auto_precision_follows_the_cpu(native, dtype, monkeypatch):
    """"auto" is bfloat16 only on a CPU with bfloat16 instructions; explicit precisions stay as set."""
    monkeypatch.setattr(inference, "native_bfloat16", lambda: native)
    model = _with_random_weights(_initialized(SETTINGS))
    assert inference_module(model, "auto").stacked_layers[0].qkv.weight.dtype == dtype
    assert resolve_precision("float32") == "float32" and resolve_precision("bfloat16") == "bfloat16"


def test_bfloat16_without_cpu_support_warns(monkeypatch):
    monkeypatch.setattr(inference, "native_bfloat16", lambda: False)
    model = _initialized(SETTINGS)
    with pytest.warns(UserWarning, match="emulates bfloat16"):
        module = inference_module(model, "bfloat16")
    assert module.stacked_layers[0].qkv.weight.dtype == torch.bfloat16


@pytest.mark.parametrize("change", [{}, *ABLATIONS, "bmes"])
def test_rounding_the_inference_length_changes_no_score(change, monkeypatch):
    """Batches padded to a multiple of INFERENCE_LENGTH_MULTIPLE give the scores of exact padding."""
    from spacy_cws.nets import padded_inputs

    model = _with_random_weights(_bmes_tagger() if change == "bmes" else _initialized({**SETTINGS, **change}))
    module = inference_module(model, "float32")
    rounded = predict_with(module, model, _batch())
    monkeypatch.setattr(padded_inputs, "INFERENCE_LENGTH_MULTIPLE", 1)
    for got, want in zip(rounded, predict_with(module, model, _batch())):
        assert got.shape == want.shape
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_inference_pads_to_the_length_multiple_and_training_does_not():
    from spacy_cws.nets.feature_batch import INFERENCE_LENGTH_MULTIPLE, pad_features, padded_length

    model = _initialized(SETTINGS)
    longest = max(len(seq) for seq in _batch()) + 2  # BOS and EOS
    inference, _ = pad_features(model, _batch(), False, True)
    assert inference.args[0].shape[1] % INFERENCE_LENGTH_MULTIPLE == 0
    assert inference.args[0].shape[1] > longest  # 11 rounded up to 16
    assert inference.args[0].shape[1] == max(padded_length(seq) for seq in _batch())
    training, _ = pad_features(model, _batch(), True, True)
    assert training.args[0].shape[1] == longest
