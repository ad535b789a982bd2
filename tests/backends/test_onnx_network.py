"""An exported ONNX graph run by ONNX Runtime gives the torch network's scores and words."""
import numpy
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from spacy_cws.backends.onnx_export import export_graph
from spacy_cws.backends.onnx_network import OnnxNetwork
from spacy_cws.backends.torch_network import TorchNetwork
from spacy_cws.nets.bmes_tagger import build_bmes_tagger_v2
from spacy_cws.nets.criterion_growth import add_criterion_head, add_criterion_layer

from ..nets.test_gd_transformer import ABLATIONS, SETTINGS, _initialized
from ..nets.test_inference_module import _batch, _with_random_weights

MAX_LENGTH = 40


def _longer_batch(criteria: int = 1):
    """Another batch: more sequences, longer ones (up to MAX_LENGTH units) than the export's example."""
    rng = numpy.random.default_rng(1)
    lengths = [MAX_LENGTH, 3, 17, 1, 26, 9]
    return [
        numpy.stack(
            [rng.integers(4, 20, n), rng.integers(4, 12, n), rng.integers(4, 12, n), numpy.full(n, i % criteria)],
            axis=1,
        ).astype("int64")
        for i, n in enumerate(lengths)
    ]


def _bmes(decoder: str):
    model = build_bmes_tagger_v2(
        unigram_width=8,
        bigram_width=4,
        width=16,
        depth=2,
        n_heads=2,
        ff_width=32,
        dropout=0.0,
        window=2,
        decoder=decoder,
    )
    model.set_dim("nV", 20)
    model.set_dim("nB", 12)
    model.initialize()
    return _with_random_weights(model)


def _assert_same_scores_and_words(model, batches):
    graph = export_graph(model, _batch(), MAX_LENGTH)
    on_onnx, on_torch = OnnxNetwork(graph, threads=1), TorchNetwork(model, "float32")
    assert on_onnx.labels == on_torch.labels
    for batch in batches:
        got, want = on_onnx.scores(batch), on_torch.scores(batch)
        assert len(got) == len(want) == len(batch)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == numpy.float32
            numpy.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
        for g, w in zip(on_onnx.decoder.word_starts(got), on_torch.decoder.word_starts(want)):
            assert (g == w).all()


@pytest.mark.parametrize("change", [{}, *ABLATIONS, {"bigram_width": 8}])
def test_gd_graph_gives_the_torch_scores_for_any_batch_and_length(change):
    """Batch size and length are dynamic: the graph traced on one batch scores
    longer, larger and single-sequence batches as torch does."""
    model = _with_random_weights(_initialized({**SETTINGS, **change}))
    _assert_same_scores_and_words(model, [_batch(), _longer_batch(), _batch()[:1]])


def test_multi_criteria_graph_reads_each_sequences_criterion():
    model = _with_random_weights(_initialized(SETTINGS, n_criteria=3))
    _assert_same_scores_and_words(model, [_longer_batch(criteria=3)])


def test_a_criterion_with_its_own_heads_and_top_layer_is_in_the_graph():
    """adapt --gold's new criterion: the graph runs its own top layers and heads for its sequences only."""
    model = _initialized(SETTINGS, n_criteria=3)
    add_criterion_head(model, 2)
    add_criterion_layer(model, 2)
    _assert_same_scores_and_words(_with_random_weights(model), [_longer_batch(criteria=3), _batch()])


@pytest.mark.parametrize("decoder", ["crf", "softmax"])
def test_bmes_graph_gives_the_torch_emissions_and_tags(decoder):
    """The emissions come from the graph; the CRF's scores ride in its metadata
    and Viterbi decodes them to the same tags."""
    model = _bmes(decoder)
    _assert_same_scores_and_words(model, [_batch(), _longer_batch(), _batch()[:1]])
    crf = OnnxNetwork(export_graph(model, _batch(), MAX_LENGTH)).decoder.crf
    if decoder == "crf":
        expected = TorchNetwork(model, "float32").decoder.crf
        assert all((a == b).all() for a, b in zip(crf, expected))  # exactly, not approximately
    else:
        assert crf is None


def test_a_sequence_longer_than_the_export_is_refused():
    model = _with_random_weights(_initialized(SETTINGS))
    network = OnnxNetwork(export_graph(model, _batch(), max_length=8))
    with pytest.raises(ValueError, match="at most 14 units"):
        network.scores(_longer_batch())


def test_bytes_that_are_not_a_segmentation_graph_are_refused():
    import onnx

    model = onnx.helper.make_model(
        onnx.helper.make_graph(
            [onnx.helper.make_node("Identity", ["x"], ["y"])],
            "identity",
            [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
            [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])],
        )
    )
    with pytest.raises(ValueError, match="not a spacy-cws segmentation network"):
        OnnxNetwork(model.SerializeToString())
