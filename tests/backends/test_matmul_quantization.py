"""int8 products by weights in an exported graph (export_onnx(matmuls="int8")):
stacked weights split exactly, then ONNX Runtime's dynamic int8, whose
words stay close to float32's on real text."""
import pickle

import numpy
import pytest
import spacy

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from spacy_cws.backends.matmul_quantization import int8_matmuls, unstacked_matmuls  # noqa: E402
from spacy_cws.backends.unsigned_weights import graph_for_this_cpu  # noqa: E402


def stacked_graph(rng) -> bytes:
    """x (3, M, 8) @ w (3, 8, 5) + b (3, 1, 5), as the stacked encoders export it."""
    from onnx import TensorProto, helper, numpy_helper

    weight = numpy_helper.from_array(rng.normal(size=(3, 8, 5)).astype(numpy.float32), "w")
    bias = numpy_helper.from_array(rng.normal(size=(3, 1, 5)).astype(numpy.float32), "b")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"], name="product"), helper.make_node("Add", ["xw", "b"], ["y"])],
        "stacked",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, "M", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, "M", 5])],
        [weight, bias],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    return model.SerializeToString()


def run(graph: bytes, x: numpy.ndarray) -> numpy.ndarray:
    """The graph's output for x, its int8 weights run as OnnxNetwork runs them on this CPU."""
    import onnxruntime

    with graph_for_this_cpu(graph) as runnable:
        return onnxruntime.InferenceSession(runnable, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_stacked_weights_split_into_2d_products_with_the_same_values():
    rng = numpy.random.default_rng(0)
    graph, x = stacked_graph(rng), rng.normal(size=(3, 11, 8)).astype(numpy.float32)
    model = onnx.shape_inference.infer_shapes(onnx.load_from_string(graph))
    assert unstacked_matmuls(model) == 1
    assert all(len(initializer.dims) < 3 for initializer in model.graph.initializer)
    assert sum(node.op_type == "MatMul" for node in model.graph.node) == 3
    assert not any(node.op_type == "Add" and "xw" in node.input for node in model.graph.node)
    numpy.testing.assert_allclose(run(model.SerializeToString(), x), run(graph, x), rtol=1e-5, atol=1e-5)


def test_int8_products_are_near_float32_and_say_so():
    rng = numpy.random.default_rng(1)
    graph, x = stacked_graph(rng), rng.normal(size=(3, 40, 8)).astype(numpy.float32)
    quantized = onnx.load_from_string(int8_matmuls(graph))
    assert {node.op_type for node in quantized.graph.node} & {"MatMulInteger", "DynamicQuantizeMatMul"}
    assert {prop.key: prop.value for prop in quantized.metadata_props}["spacy_cws.products"] == "int8"
    before, after = run(graph, x), run(quantized.SerializeToString(), x)
    assert numpy.abs(after - before).max() < 0.05 * numpy.abs(before).max() and not numpy.array_equal(after, before)


def test_shipped_pipeline_with_int8_products_keeps_its_words_on_ctb6(zh_cws_gd_sm_nlp, shared_data, tmp_path):
    """zh_cws_gd_sm exported with int8 products: ONNX Runtime reports int8,
    the saved pipeline keeps it, and on 400 CTB6 test lines at most 2% of
    the lines get other words than the float32 graph's (measured on all of
    CTB6 test: 10 of 1,975, F1 +0.004); torch still predicts in float32."""
    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").splitlines()
    texts = ["".join(line.split()) for line in lines if line.strip()][:400]
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    float32 = [[t.text for t in doc] for doc in zh_cws_gd_sm_nlp.pipe(texts)]
    segmenter.export_onnx(matmuls="int8")
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.get_pipe("gd_segmenter").inference_precision == "int8"
    int8 = [[t.text for t in doc] for doc in loaded.pipe(texts)]
    assert all("".join(words) == text for words, text in zip(int8, texts))
    differing = sum(a != b for a, b in zip(float32, int8))
    assert differing <= len(texts) // 50
    torch_nlp = spacy.load(tmp_path / "nlp", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    assert torch_nlp.get_pipe("gd_segmenter").inference_precision in ("float32", "bfloat16")


def test_quantizing_gives_no_preprocessing_advice_on_stderr(caplog, monkeypatch):
    """quantize_dynamic's advice to pre-process the graph (it has been: shapes
    inferred, ONNX Runtime optimises when an InferenceSession starts) is not passed on to
    the user of export-onnx or adapt; it is there without the filter."""
    import contextlib

    from spacy_cws.backends import matmul_quantization

    graph = stacked_graph(numpy.random.default_rng(5))
    with caplog.at_level("WARNING"):
        int8_matmuls(graph)
    assert not any(r.getMessage().startswith(matmul_quantization.PREPROCESSING_ADVICE) for r in caplog.records)
    monkeypatch.setattr(matmul_quantization, "_without_preprocessing_advice", contextlib.nullcontext)
    with caplog.at_level("WARNING"):
        int8_matmuls(graph)
    assert any(r.getMessage().startswith(matmul_quantization.PREPROCESSING_ADVICE) for r in caplog.records)
