"""int8 weights run as uint8 on x86 CPUs without VNNI: exact integer
products where ONNX Runtime's U8S8 kernel would saturate, the same words
as the model card's."""
from pathlib import Path

import numpy
import pytest

onnxruntime = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from spacy_cws.backends.unsigned_weights import saturating_int8_products, unsigned_weight_graph  # noqa: E402


def integer_product_graph(weight: numpy.ndarray, zero_point=None) -> bytes:
    """a (M, K) uint8 input times an int8 (K, N) weight: MatMulInteger's int32 (M, N)."""
    initializers = [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(numpy.uint8(0), "a_zero")]
    inputs = ["a", "w", "a_zero"]
    if zero_point is not None:
        initializers.append(numpy_helper.from_array(zero_point, "w_zero"))
        inputs.append("w_zero")
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", inputs, ["y"])],
        "integer_product",
        [helper.make_tensor_value_info("a", TensorProto.UINT8, ["M", weight.shape[0]])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, ["M", weight.shape[1]])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    return model.SerializeToString()


def product(graph: bytes, a: numpy.ndarray) -> numpy.ndarray:
    return onnxruntime.InferenceSession(graph, providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]


@pytest.mark.parametrize("with_zero_point", [True, False])
def test_unsigned_weights_give_the_exact_products_where_u8s8_would_saturate(with_zero_point):
    """Activations of 255 against weights of 127 and -128: every pair of byte
    products overflows int16 (2 x 255 x 127 = 64,770), the case of the AVX2 kernel."""
    rng = numpy.random.default_rng(0)
    weight = rng.choice(numpy.array([127, -128, 126, -127], dtype=numpy.int8), size=(64, 16))
    zero_point = rng.integers(-3, 4, size=16).astype(numpy.int8) if with_zero_point else None
    a = numpy.full((5, 64), 255, dtype=numpy.uint8)
    a[1::2] = rng.integers(200, 256, size=(2, 64))
    exact = a.astype(numpy.int64) @ (weight.astype(numpy.int64) - (0 if zero_point is None else zero_point))
    graph = integer_product_graph(weight, zero_point)
    unsigned = unsigned_weight_graph(graph)
    model = onnx.load_from_string(unsigned)
    node = model.graph.node[0]
    weights = {initializer.name: initializer for initializer in model.graph.initializer}
    assert weights[node.input[1]].data_type == weights[node.input[3]].data_type == TensorProto.UINT8
    numpy.testing.assert_array_equal(product(unsigned, a), exact)


def test_graphs_without_int8_products_or_unreadable_are_passed_on_unchanged():
    float_graph = helper.make_model(
        helper.make_graph(
            [helper.make_node("Relu", ["x"], ["y"])],
            "float",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        )
    ).SerializeToString()
    assert unsigned_weight_graph(float_graph) is float_graph
    damaged = b"\x08\x09not an onnx model"
    assert unsigned_weight_graph(damaged) is damaged


def test_only_x86_cpus_without_vnni_rewrite():
    assert saturating_int8_products("x86_64", {"avx2", "fma"})
    assert saturating_int8_products("AMD64", {"avx512f", "avx512bw"})
    assert not saturating_int8_products("x86_64", {"avx2", "avx512_vnni"})
    assert not saturating_int8_products("x86_64", {"avx2", "avx_vnni"})
    assert not saturating_int8_products("aarch64", set())


def test_a_graph_file_is_run_from_a_file_and_its_temporary_copy_removed(tmp_path, monkeypatch):
    """Where the CPU needs the rewrite, a graph given as a file reaches ONNX
    Runtime as a file (which it does not keep a copy of), removed afterwards;
    bytes stay bytes; without the rewrite the graph passes through as it is."""
    from spacy_cws.backends import unsigned_weights

    weight = numpy.full((4, 3), -7, dtype=numpy.int8)
    graph = integer_product_graph(weight, numpy.zeros(3, dtype=numpy.int8))
    path = tmp_path / "graph.onnx"
    path.write_bytes(graph)
    monkeypatch.setattr(unsigned_weights, "saturating_int8_products", lambda: True)
    with unsigned_weights.graph_for_this_cpu(str(path)) as runnable:
        assert isinstance(runnable, str) and runnable != str(path)
        a = numpy.full((2, 4), 200, dtype=numpy.uint8)
        numpy.testing.assert_array_equal(product(runnable, a), numpy.full((2, 3), 200 * 4 * -7))
    assert not Path(runnable).exists()
    with unsigned_weights.graph_for_this_cpu(graph) as runnable:
        assert isinstance(runnable, bytes) and runnable != graph
    monkeypatch.setattr(unsigned_weights, "saturating_int8_products", lambda: False)
    with unsigned_weights.graph_for_this_cpu(str(path)) as runnable:
        assert runnable == str(path)


def test_without_a_writable_temporary_folder_the_rewritten_bytes_are_run(tmp_path, monkeypatch):
    import tempfile

    from spacy_cws.backends import unsigned_weights

    path = tmp_path / "graph.onnx"
    path.write_bytes(integer_product_graph(numpy.full((4, 3), 5, dtype=numpy.int8)))
    monkeypatch.setattr(unsigned_weights, "saturating_int8_products", lambda: True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    with unsigned_weights.graph_for_this_cpu(str(path)) as runnable:
        assert isinstance(runnable, bytes)
        numpy.testing.assert_array_equal(product(runnable, numpy.ones((1, 4), numpy.uint8)), [[20, 20, 20]])
