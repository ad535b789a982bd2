"""n-gram tables saved in float16 stay float16 when loaded (nets/lookup_table.py):
the same scores as upcast tables, half the memory, float32 again for training."""
import numpy
import pytest
import torch
from thinc.api import Adam

from spacy_cws.nets.inference import inference_module, predict_with
from spacy_cws.nets.lookup_table import LookupTable, lookup_table_weights
from spacy_cws.nets.module_weights import assign_weights, weights_follow
from spacy_cws.nets.wrapped_module import torch_module

from .test_gd_transformer import SETTINGS, _initialized
from .test_inference_module import _batch, _bmes_tagger, _with_random_weights

BUILDERS = {
    "gd": lambda: _initialized({**SETTINGS, "bigram_width": 8}),
    "bmes": _bmes_tagger,
}


def _saved_in_half(build):
    """A model with random float16-exact weights, its float16 state dict, and
    the same model loaded from that state dict (as a shipped pipeline loads)."""
    saved = _with_random_weights(build())
    with torch.no_grad():
        for parameter in torch_module(saved).parameters():
            parameter.copy_(parameter.half().float())
    half = {name: tensor.half() for name, tensor in torch_module(saved).state_dict().items()}
    with weights_follow():
        loaded = build()
    assign_weights(torch_module(loaded), half)
    return saved, loaded


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_float16_tables_stay_float16_and_score_as_float32_ones(kind):
    saved, loaded = _saved_in_half(BUILDERS[kind])
    module = torch_module(loaded)
    tables = lookup_table_weights(module)
    assert tables == {"bigram_embedding.weight"}
    state = module.state_dict()
    for name, tensor in state.items():
        assert tensor.dtype == (torch.float16 if name in tables else torch.float32), name
        assert torch.equal(tensor.float(), torch_module(saved).state_dict()[name]), name
    # The float32 inference copy shares the float16 table and gives exactly the
    # scores of the model whose table is float32.
    copy = inference_module(loaded, "float32")
    assert copy.bigram_embedding.weight.data_ptr() == module.bigram_embedding.weight.data_ptr()
    want = predict_with(inference_module(saved, "float32"), saved, _batch())
    for got, expected in zip(predict_with(copy, loaded, _batch()), want):
        numpy.testing.assert_array_equal(got, expected)
    # bfloat16: the copy keeps the float16 table and casts the rows it gathers,
    # the scores of a copy whose table was cast to bfloat16.
    copy = inference_module(loaded, "bfloat16")
    assert copy.bigram_embedding.weight.data_ptr() == module.bigram_embedding.weight.data_ptr()
    assert copy.embedding.weight.dtype == torch.bfloat16
    want = predict_with(inference_module(saved, "bfloat16"), saved, _batch())
    assert inference_module(saved, "bfloat16").bigram_embedding.weight.dtype == torch.bfloat16
    for got, expected in zip(predict_with(copy, loaded, _batch()), want):
        numpy.testing.assert_array_equal(got, expected)


def test_training_a_loaded_model_upcasts_its_tables_first():
    saved, loaded = _saved_in_half(BUILDERS["gd"])
    table = torch_module(loaded).bigram_embedding
    before = table.weight.detach().float().clone()
    scores, backprop = loaded.begin_update(_batch())  # thinc's shim: train mode
    assert table.weight.dtype == torch.float32 and torch.equal(table.weight.detach(), before)
    backprop([loaded.ops.alloc(score.shape, dtype="f") + 1.0 for score in scores])
    loaded.finish_update(Adam(0.01))
    assert table.weight.dtype == torch.float32 and not torch.equal(table.weight.detach(), before)


def test_a_lookup_table_gathers_float32_rows_from_a_float16_table():
    table = LookupTable(6, 3)
    with torch.no_grad():
        table.weight.copy_(table.weight.half().float())
    ids = torch.tensor([[0, 5], [2, 2]])
    want = table(ids)
    table.weight = torch.nn.Parameter(table.weight.detach().half(), requires_grad=False)
    got = table.eval()(ids)
    assert got.dtype == torch.float32 and torch.equal(got, want)
