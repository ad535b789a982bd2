"""Static int8 products (export_onnx(matmuls="int8-static")): activation ranges
measured once on calibration text, so a sequence's words do not depend on
the batch, and they stay close to float32's on real text."""
import pickle

import numpy
import pytest
import spacy

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from spacy_cws.backends.static_quantization import static_int8_matmuls  # noqa: E402

from .test_matmul_quantization import run, stacked_graph  # noqa: E402


def test_static_products_fuse_their_scales_and_do_not_depend_on_the_batch():
    rng = numpy.random.default_rng(2)
    graph = stacked_graph(rng)
    calibration = [{"x": rng.normal(size=(3, 50, 8)).astype(numpy.float32)} for _ in range(4)]
    model = onnx.load_from_string(static_int8_matmuls(graph, calibration))
    ops = {node.op_type for node in model.graph.node}
    assert "MatMulIntegerToFloat" in ops and "QuantizeLinear" in ops
    assert not ops & {"DynamicQuantizeLinear", "MatMulInteger", "Cast"}
    assert {prop.key: prop.value for prop in model.metadata_props}["spacy_cws.products"] == "int8-static"
    static = model.SerializeToString()
    x = rng.normal(size=(3, 30, 8)).astype(numpy.float32)
    before, after = run(graph, x), run(static, x)
    assert numpy.abs(after - before).max() < 0.05 * numpy.abs(before).max() and not numpy.array_equal(after, before)
    # Rows 0-9 alone and inside a batch whose other rows are ten times larger:
    # the same values (dynamic int8 rescales the whole batch).
    loud = numpy.concatenate([x[:, :10], 10 * x[:, 10:]], axis=1)
    numpy.testing.assert_array_equal(run(static, x[:, :10]), run(static, loud)[:, :10])


def test_no_calibration_text_is_refused():
    with pytest.raises(ValueError, match="calibration"):
        static_int8_matmuls(stacked_graph(numpy.random.default_rng(3)), [])


def test_shipped_pipeline_with_static_products_keeps_its_words_whatever_the_batch(
    zh_cws_gd_sm_nlp, shared_data, tmp_path
):
    """zh_cws_gd_sm exported with static int8 products, calibrated on 300
    CTB6 dev lines: on 300 CTB6 test lines at most 2% get other words than
    the float32 graph's, nlp.pipe at batch sizes 1 and 64 gives the same
    words, the saved pipeline keeps the graph, and the graph has no node
    whose outputs nothing reads."""
    dev = (shared_data / "ctb6" / "dev.seg").read_text(encoding="utf-8").splitlines()
    test = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").splitlines()
    calibration = ["".join(line.split()) for line in dev if line.strip()][:300]
    texts = ["".join(line.split()) for line in test if line.strip()][:300]
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    with pytest.raises(ValueError, match="calibration"):
        segmenter.export_onnx(matmuls="int8-static")
    segmenter.export_onnx(calibration, matmuls="int8-static")
    # No node whose outputs nothing reads: ONNX Runtime would warn of each on stderr at every load.
    graph = onnx.load_from_string(segmenter.network.graph_bytes()).graph
    read = {output.name for output in graph.output}.union(name for node in graph.node for name in node.input)
    assert all(any(name in read for name in node.output) for node in graph.node)
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.get_pipe("gd_segmenter").inference_precision == "int8-static"
    float32 = [[t.text for t in doc] for doc in zh_cws_gd_sm_nlp.pipe(texts)]
    one = [[t.text for t in doc] for doc in loaded.pipe(texts, batch_size=1)]
    many = [[t.text for t in doc] for doc in loaded.pipe(texts, batch_size=64)]
    assert one == many
    assert all("".join(words) == text for words, text in zip(many, texts))
    assert sum(a != b for a, b in zip(float32, many)) <= len(texts) // 50
