"""int8 matrix products in a segmenter's ONNX graph (``export_onnx(matmuls="int8")``).

ONNX Runtime's CPU kernels have no bfloat16 matrix products, so its float32
graph is slower than torch's bfloat16 path on a CPU with AVX512-BF16, and the
dense layers (query/key/value, feed-forward, output projections) take most of
its time. Here every matrix product whose
second input is a weight becomes ONNX Runtime's dynamic int8 product
(onnxruntime.quantization.quantize_dynamic: int8 weights with a scale per
output column, activations quantised per product at run time), which uses
the CPU's VNNI int8 dot products.

The stacked encoders keep their three encoders' weights in one (3, K, N)
tensor that one batched MatMul applies; ONNX Runtime quantises such a weight
with one scale for all three and no per-column scales. So each such product
is first split into its encoders' 2-D products, each with its own bias
(``unstacked_matmuls``: the same float32 values, and ONNX Runtime then fuses
each product with its bias into a Gemm).

An activation is quantised with one scale for its whole batch, so a
sequence's words depend on the batch it is in (docs/experiments/inference.md,
int8 matrix products). That is why no shipped pipeline uses it, and this is
an opt-in for throughput; "int8-static" (static_quantization.py) calibrates
the ranges once instead.
"""
import logging
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, List

import numpy

from .graph_compaction import import_onnx
from .graph_metadata import PRODUCTS_KEY


def unstacked_matmuls(model) -> int:
    """Split, in place, each MatMul of a (E, M, K) input by a stacked (E, K, N)
    weight, with the (E, 1, N) bias added to it if any, into E 2-D MatMuls
    (and Adds) whose results are concatenated again: the same values.

    model: an onnx.ModelProto, its shapes inferred (the input's rank).
    RETURNS the number of MatMuls split.
    """
    onnx = import_onnx()
    from onnx import helper, numpy_helper

    graph = model.graph
    weights = {initializer.name: initializer for initializer in graph.initializer}
    infos = [*graph.input, *graph.value_info]
    ranks = {info.name: len(info.type.tensor_type.shape.dim) for info in infos}
    users: Dict[str, List] = {}
    for node in graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    axis = "unstacked_axis_0"
    graph.initializer.append(numpy_helper.from_array(numpy.array([0], dtype=numpy.int64), axis))
    nodes, dropped, split = [], set(), 0
    for node in graph.node:
        if id(node) in dropped:
            continue
        weight = weights.get(node.input[1]) if node.op_type == "MatMul" else None
        if weight is None or len(weight.dims) != 3 or ranks.get(node.input[0]) != 3:
            nodes.append(node)
            continue
        stacked = numpy_helper.to_array(weight)
        bias, output = None, node.output[0]
        (add, *others) = users.get(output, [None])
        if add is not None and not others and add.op_type == "Add":
            other = next(name for name in add.input if name != output)
            candidate = numpy_helper.to_array(weights[other]) if other in weights else None
            if candidate is not None and candidate.shape == (stacked.shape[0], 1, stacked.shape[2]):
                bias, output = candidate[:, 0], add.output[0]
                dropped.add(id(add))
        prefix = f"{node.name or output}/unstacked"
        parts = [f"{prefix}/input_{e}" for e in range(len(stacked))]
        nodes.append(helper.make_node("Split", [node.input[0]], parts, axis=0, num_outputs=len(stacked)))
        results = []
        for e, part in enumerate(parts):
            graph.initializer.append(numpy_helper.from_array(stacked[e], f"{weight.name}/{e}"))
            rows, product = f"{prefix}/rows_{e}", f"{prefix}/product_{e}"
            nodes.append(helper.make_node("Squeeze", [part, axis], [rows]))
            nodes.append(
                helper.make_node("MatMul", [rows, f"{weight.name}/{e}"], [product], name=f"{prefix}/MatMul_{e}")
            )
            if bias is not None:
                graph.initializer.append(numpy_helper.from_array(bias[e], f"{prefix}/bias_{e}"))
                nodes.append(helper.make_node("Add", [product, f"{prefix}/bias_{e}"], [product + "/biased"]))
                product += "/biased"
            nodes.append(helper.make_node("Unsqueeze", [product, axis], [f"{prefix}/result_{e}"]))
            results.append(f"{prefix}/result_{e}")
        nodes.append(helper.make_node("Concat", results, [output], axis=0))
        split += 1
    del graph.node[:]
    graph.node.extend(node for node in nodes if id(node) not in dropped)
    used = {name for node in graph.node for name in node.input}
    kept = [initializer for initializer in graph.initializer if initializer.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    onnx.checker.check_model(model)
    return split


def int8_matmuls(graph: bytes) -> bytes:
    """``graph`` (a serialized float32 ONNX model) with its weight products
    in dynamic int8, per output column (stacked weights split first), its
    metadata saying so (graph_metadata.graph_products). Run it before
    ``compact_graph``, whose float16 storage would hide the weights behind Cast
    nodes.

    RAISES ImportError: without the onnx package, naming the extra.
    """
    onnx = import_onnx()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = onnx.shape_inference.infer_shapes(onnx.load_from_string(graph))
    unstacked_matmuls(model)
    for number, node in enumerate(model.graph.node):  # quantize_dynamic picks nodes by name
        node.name = node.name or f"{node.op_type}_{number}"
    weights = {initializer.name: len(initializer.dims) for initializer in model.graph.initializer}
    products = [node.name for node in model.graph.node if node.op_type == "MatMul" and weights.get(node.input[1]) == 2]
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder, "float32.onnx"), Path(folder, "int8.onnx")
        onnx.save(model, source)
        with _without_preprocessing_advice():
            quantize_dynamic(
                source, target, op_types_to_quantize=["MatMul"], nodes_to_quantize=products,
                per_channel=True, weight_type=QuantType.QInt8,
            )
        quantized = onnx.load(target)
    onnx.helper.set_model_props(quantized, {**{p.key: p.value for p in quantized.metadata_props}, PRODUCTS_KEY: "int8"})
    return quantized.SerializeToString()


# quantize_dynamic advises on the root logger to run ONNX Runtime's
# pre-processing (shape inference and graph optimisation), which this
# graph has had: its shapes are inferred above, and ONNX Runtime
# optimises the graph when an InferenceSession starts. The advice reached `adapt`'s
# and `export-onnx`'s users as a stray warning.
PREPROCESSING_ADVICE = "Please consider to run pre-processing before quantization"


@contextmanager
def _without_preprocessing_advice():
    """Inside, the root logger drops quantize_dynamic's pre-processing advice (and nothing else)."""
    root = logging.getLogger()

    def advice(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(PREPROCESSING_ADVICE)

    root.addFilter(advice)
    try:
        yield
    finally:
        root.removeFilter(advice)
