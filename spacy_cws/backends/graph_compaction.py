"""Smaller ONNX graphs of a segmenter's network: int8 n-gram tables with a
scale per row, and float16 storage for the other weights.

The bigram table is most of a pipeline (zh_cws_gd_sm: 295,144 x 64, 38 MB
in float16; zh_cws_gd: 210,923 x 64). A lookup reads a few rows of it, so
each row is kept as int8 codes q with one float32 scale s = max|row| / 127,
and the graph gathers the rows' codes and scales and multiplies them:
``Mul(Cast(Gather(q, ids), float), Gather(s, ids))`` in place of
``Gather(table, ids)``. A row's values move by at most s / 2. The words this
gives are measured against the float16 table in docs/guides/onnx-runtime.md
(``python benchmarks/onnx_agreement.py``); the torch path reads the same rows
(``table_weights``), so both backends compute with the same weights.

Every other float32 weight that float16 holds exactly (the shipped
pipelines saved their weights in float16) is stored in float16 and cast
back by a Cast node, which ONNX Runtime folds when the InferenceSession starts: the
same float32 values, half the bytes on disk.
"""
from typing import Collection, Dict

import numpy

# Tables with at least this many values are stored as int8 rows.
MIN_QUANTIZED_VALUES = 1 << 20
# Weights with fewer values stay as they are (a Cast node costs more than it saves).
MIN_HALVED_VALUES = 1 << 10
CODES_SUFFIX = ".int8_rows"
SCALES_SUFFIX = ".row_scales"
HALF_SUFFIX = ".float16"


def import_onnx():
    """The onnx module. RAISES ImportError naming the extra to install."""
    try:
        import onnx
    except ImportError as err:
        raise ImportError('Compacting a segmenter\'s ONNX graph needs the onnx package: pip install "spacy-cws[export]"') from err
    return onnx


def row_quantized(table: numpy.ndarray):
    """int8 codes (n, d) and float32 scales (n, 1) of a float table (n, d):
    codes = round(row / scale), scale = max|row| / 127 (1 for a zero row)."""
    table = table.astype(numpy.float32)
    scales = numpy.abs(table).max(axis=1, keepdims=True) / 127.0
    scales[scales == 0] = 1.0
    codes = numpy.clip(numpy.rint(table / scales), -127, 127).astype(numpy.int8)
    return codes, scales.astype(numpy.float32)


def dequantized(codes: numpy.ndarray, scales: numpy.ndarray) -> numpy.ndarray:
    """float32 (n, d): the rows the graph computes from int8 codes and their scales."""
    return codes.astype(numpy.float32) * scales


def compact_graph(graph: bytes, int8_tables: Collection[str] = ()) -> bytes:
    """``graph`` (a serialized ONNX model) with its large Gather tables named
    in ``int8_tables`` as int8 rows and its other float16-exact float32
    weights stored in float16.

    int8_tables: initializer names that may become int8 rows (the network's
        n-gram tables, whose rows the torch model can take back:
        nets/module_weights.py set_table_rows); those with at least
        MIN_QUANTIZED_VALUES values, read by Gather only, do.

    RAISES ImportError: without the onnx package, naming the extra.
    """
    onnx = import_onnx()
    from onnx import helper, numpy_helper

    model = onnx.load_from_string(graph)
    nodes = list(model.graph.node)
    users: Dict[str, list] = {}
    for node in nodes:
        for name in node.input:
            users.setdefault(name, []).append(node)
    kept, new_nodes, replaced_outputs = [], [], set()
    for initializer in model.graph.initializer:
        array = numpy_helper.to_array(initializer)
        consumers = users.get(initializer.name, [])
        is_table = (
            initializer.name in int8_tables
            and array.ndim == 2
            and array.size >= MIN_QUANTIZED_VALUES
            and array.dtype in (numpy.float16, numpy.float32)
            and consumers
            and all(node.op_type == "Gather" and node.input[0] == initializer.name and _axis(node) == 0 for node in consumers)
        )
        if is_table:
            codes, scales = row_quantized(array)
            kept += [
                numpy_helper.from_array(codes, initializer.name + CODES_SUFFIX),
                numpy_helper.from_array(scales, initializer.name + SCALES_SUFFIX),
            ]
            for node in consumers:
                node_codes, node_rows, node_scales = (f"{node.output[0]}{suffix}" for suffix in ("_codes", "_rows", "_scales"))
                replacement = [
                    helper.make_node("Gather", [initializer.name + CODES_SUFFIX, node.input[1]], [node_codes], axis=0),
                    helper.make_node("Cast", [node_codes], [node_rows], to=onnx.TensorProto.FLOAT),
                    helper.make_node("Gather", [initializer.name + SCALES_SUFFIX, node.input[1]], [node_scales], axis=0),
                    helper.make_node("Mul", [node_rows, node_scales], [node.output[0]]),
                ]
                new_nodes.append((node, replacement))
                replaced_outputs.add(node.output[0])
        elif array.dtype == numpy.float32 and array.size >= MIN_HALVED_VALUES and _half_exact(array):
            kept.append(numpy_helper.from_array(array.astype(numpy.float16), initializer.name + HALF_SUFFIX))
            new_nodes.append((None, [helper.make_node("Cast", [initializer.name + HALF_SUFFIX], [initializer.name], to=onnx.TensorProto.FLOAT)]))
        else:
            kept.append(initializer)
    order = [cast for node, casts in new_nodes if node is None for cast in casts]
    swapped = {id(node): replacement for node, replacement in new_nodes if node is not None}
    for node in nodes:
        order += swapped.get(id(node), [node])
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    del model.graph.node[:]
    model.graph.node.extend(order)
    # A replaced Gather's output was float16 where the table was: its declared type goes.
    value_info = [info for info in model.graph.value_info if info.name not in replaced_outputs]
    del model.graph.value_info[:]
    model.graph.value_info.extend(value_info)
    onnx.checker.check_model(model)
    return model.SerializeToString()


def table_weights(graph: bytes) -> Dict[str, numpy.ndarray]:
    """The int8 tables of a compacted graph, dequantized: per table its
    original initializer name (the network's state-dict name, e.g.
    "bigram_embedding.weight") and its float32 rows (n, d).

    RAISES ImportError: without the onnx package, naming the extra.
    """
    onnx = import_onnx()
    from onnx import numpy_helper

    model = onnx.load_from_string(graph)
    arrays = {
        initializer.name: numpy_helper.to_array(initializer)
        for initializer in model.graph.initializer
        if initializer.name.endswith((CODES_SUFFIX, SCALES_SUFFIX))
    }
    return {
        name[: -len(CODES_SUFFIX)]: dequantized(codes, arrays[name[: -len(CODES_SUFFIX)] + SCALES_SUFFIX])
        for name, codes in arrays.items()
        if name.endswith(CODES_SUFFIX)
    }


def _axis(node) -> int:
    return next((attribute.i for attribute in node.attribute if attribute.name == "axis"), 0)


def _half_exact(array: numpy.ndarray) -> bool:
    with numpy.errstate(over="ignore"):
        return bool(numpy.array_equal(array.astype(numpy.float16).astype(numpy.float32), array))
