"""Smaller ONNX graphs of a segmenter's network: int8 rows or 4-bit blocks
for the n-gram tables, and float16 storage for the other weights.

The bigram table is most of a pipeline. A lookup reads a few rows of it, so
each row is kept as int8 codes q with one float32 scale s = max|row| / 127,
and the graph gathers the rows' codes and scales and multiplies them:
``Mul(Cast(Gather(q, ids), float), Gather(s, ids))`` in place of
``Gather(table, ids)``. A row's values move by at most s / 2.

With 4-bit blocks (``export_onnx(tables="int4")``) each block of BLOCK values of
a row has its own float32 scale s and 4-bit zero point z (from the block's
range, widened to hold 0 so that a zero row stays zero, and clipped where
that lowers the block's squared error) and keeps codes q in 0..15,
x = (q - z) * s. Codes and zero points are packed
two to a byte, the even one in the low four bits: 41 bytes a 64-wide row
against int8's 68. ONNX Runtime's ``GatherBlockQuantized`` (com.microsoft)
gathers and dequantizes them in one operator.

The words this gives are compared with the float16 table's in
docs/experiments/inference.md (``python benchmarks/onnx_agreement.py``); the
torch path reads the same rows (``table_weights``), so both backends
compute with the same weights.

Every other float32 weight that float16 holds exactly (the shipped
pipelines saved their weights in float16) is stored in float16 and cast
back by a Cast node, which ONNX Runtime folds when the InferenceSession starts: the
same float32 values, half the bytes on disk.
"""
from typing import Collection, Dict

import numpy

# Tables with at least this many values are stored as int8 rows or 4-bit blocks.
MIN_QUANTIZED_VALUES = 1 << 20
# Weights with fewer values stay as they are (a Cast node costs more than it saves).
MIN_HALVED_VALUES = 1 << 10
CODES_SUFFIX = ".int8_rows"
SCALES_SUFFIX = ".row_scales"
HALF_SUFFIX = ".float16"
BLOCKS_SUFFIX = ".int4_blocks"
ZERO_POINTS_SUFFIX = ".block_zero_points"
BLOCK_SCALES_SUFFIX = ".block_scales"
# ONNX Runtime's own operators (GatherBlockQuantized, MatMulIntegerToFloat).
CONTRIB_DOMAIN = "com.microsoft"
# Values of a row that share a scale and a zero point in a 4-bit table.
BLOCK = 32
# The fractions of a block's range tried as its clipped range (block_quantized), the whole range first.
CLIPPINGS = tuple(numpy.linspace(1.0, 0.7, 16).tolist())


def import_onnx():
    """The onnx module. RAISES ImportError naming the extra to install."""
    try:
        import onnx
    except ImportError as err:
        raise ImportError(
            'Compacting a segmenter\'s ONNX graph needs the onnx package: pip install "spacy-cws[export]"'
        ) from err
    return onnx


def import_contrib_domain(model) -> None:
    """Make ``model`` (an onnx ModelProto) import ONNX Runtime's operator
    domain (CONTRIB_DOMAIN), where its nodes use one of its operators."""
    from onnx import helper

    if all(entry.domain != CONTRIB_DOMAIN for entry in model.opset_import):
        model.opset_import.append(helper.make_opsetid(CONTRIB_DOMAIN, 1))


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


def block_quantized(table: numpy.ndarray):
    """4-bit codes (n, d) in 0..15, zero points (n, d / BLOCK) in 0..15 and
    float32 scales (n, d / BLOCK) of a float table (n, d), d a multiple of
    BLOCK. Each block's range [lo, hi] is widened to hold 0 and then clipped
    to the fraction of it (CLIPPINGS, 1 included) whose codes give the block
    the least squared error: s = f (hi - lo) / 15 (1 where that is 0),
    z = clip(round(-f lo / s), 0, 15), q = clip(round(x / s) + z, 0, 15).
    (The search is the usual refinement of min-max scales; what it changes:
    docs/experiments/inference.md.)"""
    blocks = table.astype(numpy.float32).reshape(len(table), -1, BLOCK)
    low = numpy.minimum(blocks.min(axis=2, keepdims=True), 0)
    high = numpy.maximum(blocks.max(axis=2, keepdims=True), 0)
    best = None
    for fraction in CLIPPINGS:
        scales = fraction * (high - low) / 15
        scales[scales == 0] = 1.0
        zero_points = numpy.clip(numpy.rint(-fraction * low / scales), 0, 15)
        codes = numpy.clip(numpy.rint(blocks / scales) + zero_points, 0, 15)
        error = numpy.square((codes - zero_points) * scales - blocks).sum(axis=2, keepdims=True)
        if best is None:
            best = [codes, zero_points, scales, error]
        else:
            better = error < best[3]
            best = [numpy.where(better, new, old) for new, old in zip((codes, zero_points, scales, error), best)]
    codes, zero_points, scales, _ = best
    return codes.reshape(table.shape).astype(numpy.uint8), zero_points[..., 0].astype(numpy.uint8), scales[..., 0]


def block_dequantized(codes: numpy.ndarray, zero_points: numpy.ndarray, scales: numpy.ndarray) -> numpy.ndarray:
    """float32 (n, d): the rows GatherBlockQuantized computes from 4-bit codes, zero points and scales."""
    blocks = codes.reshape(len(codes), -1, BLOCK).astype(numpy.float32) - zero_points[..., None]
    return (blocks * scales[..., None]).reshape(codes.shape)


def packed_4bit(values: numpy.ndarray) -> numpy.ndarray:
    """uint8 values (n, k) in 0..15, two to a byte (n, ceil(k / 2)), the even one in the low four bits."""
    if values.shape[1] % 2:
        values = numpy.pad(values, ((0, 0), (0, 1)))
    return (values[:, 0::2] | (values[:, 1::2] << 4)).astype(numpy.uint8)


def unpacked_4bit(packed: numpy.ndarray, width: int) -> numpy.ndarray:
    """The (n, width) values of ``packed_4bit``'s bytes."""
    return numpy.stack([packed & 15, packed >> 4], axis=2).reshape(len(packed), -1)[:, :width]


def compact_graph(graph: bytes, quantized_tables: Collection[str] = (), bits: int = 8) -> bytes:
    """``graph`` (a serialized ONNX model) with its large Gather tables named
    in ``quantized_tables`` as int8 rows or 4-bit blocks and its other
    float16-exact float32 weights stored in float16.

    quantized_tables: initializer names that may be quantized (the
        network's n-gram tables, whose rows the torch model can take back:
        nets/module_weights.py set_table_rows); those with at least
        MIN_QUANTIZED_VALUES values, read by Gather only, are (with 4 bits,
        those whose width is a multiple of BLOCK; others keep 8 bits).
    bits: 8 (int8 rows) or 4 (4-bit blocks).

    RAISES ImportError: without the onnx package, naming the extra;
        ValueError: for bits other than 8 or 4.
    """
    if bits not in (8, 4):
        raise ValueError(f"n-gram tables are int8 rows or 4-bit blocks, not {bits}-bit")
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
            initializer.name in quantized_tables
            and array.ndim == 2
            and array.size >= MIN_QUANTIZED_VALUES
            and array.dtype in (numpy.float16, numpy.float32)
            and consumers
            and all(
                node.op_type == "Gather" and node.input[0] == initializer.name and _axis(node) == 0
                for node in consumers
            )
        )
        if is_table:
            if bits == 4 and array.shape[1] % BLOCK == 0:
                kept += _4bit_initializers(initializer.name, array)
                gathered = _gathered_4bit_rows
            else:
                codes, scales = row_quantized(array)
                kept += [
                    numpy_helper.from_array(codes, initializer.name + CODES_SUFFIX),
                    numpy_helper.from_array(scales, initializer.name + SCALES_SUFFIX),
                ]
                gathered = _gathered_int8_rows
            for node in consumers:
                new_nodes.append((node, gathered(initializer.name, node)))
                replaced_outputs.add(node.output[0])
        elif array.dtype == numpy.float32 and array.size >= MIN_HALVED_VALUES and _half_exact(array):
            kept.append(numpy_helper.from_array(array.astype(numpy.float16), initializer.name + HALF_SUFFIX))
            new_nodes.append((None, [helper.make_node(
                "Cast", [initializer.name + HALF_SUFFIX], [initializer.name], to=onnx.TensorProto.FLOAT
            )]))
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
    if any(node.domain == CONTRIB_DOMAIN for node in order):
        import_contrib_domain(model)
    onnx.checker.check_model(model)
    return model.SerializeToString()


def _gathered_int8_rows(table: str, node) -> list:
    """The nodes computing ``node``'s Gather of ``table`` from its int8 codes and float32 scales."""
    from onnx import TensorProto, helper

    codes, rows, scales = (f"{node.output[0]}{suffix}" for suffix in ("_codes", "_rows", "_scales"))
    return [
        helper.make_node("Gather", [table + CODES_SUFFIX, node.input[1]], [codes], axis=0),
        helper.make_node("Cast", [codes], [rows], to=TensorProto.FLOAT),
        helper.make_node("Gather", [table + SCALES_SUFFIX, node.input[1]], [scales], axis=0),
        helper.make_node("Mul", [rows, scales], [node.output[0]]),
    ]


def _4bit_initializers(table: str, array: numpy.ndarray) -> list:
    """A 4-bit table's initializers: its packed codes (n, d / 2), packed zero
    points (n, ceil(d / BLOCK / 2)) and float32 scales (n, d / BLOCK)."""
    from onnx import numpy_helper

    codes, zero_points, scales = block_quantized(array)
    return [
        numpy_helper.from_array(packed_4bit(codes), table + BLOCKS_SUFFIX),
        numpy_helper.from_array(packed_4bit(zero_points), table + ZERO_POINTS_SUFFIX),
        numpy_helper.from_array(scales.astype(numpy.float32), table + BLOCK_SCALES_SUFFIX),
    ]


def _gathered_4bit_rows(table: str, node) -> list:
    """``node``'s Gather of ``table`` as ONNX Runtime's GatherBlockQuantized of its 4-bit blocks."""
    from onnx import helper

    inputs = [table + BLOCKS_SUFFIX, node.input[1], table + BLOCK_SCALES_SUFFIX, table + ZERO_POINTS_SUFFIX]
    return [
        helper.make_node(
            "GatherBlockQuantized", inputs, [node.output[0]], domain=CONTRIB_DOMAIN,
            bits=4, block_size=BLOCK, gather_axis=0, quantize_axis=1,
        )
    ]


def table_weights(graph: bytes) -> Dict[str, numpy.ndarray]:
    """The int8 and 4-bit tables of a compacted graph, dequantized: per
    table its original initializer name (the network's state-dict name, e.g.
    "bigram_embedding.weight") and its float32 rows (n, d), the values the
    graph computes.

    RAISES ImportError: without the onnx package, naming the extra.
    """
    onnx = import_onnx()
    from onnx import numpy_helper

    model = onnx.load_from_string(graph)
    suffixes = (CODES_SUFFIX, SCALES_SUFFIX, BLOCKS_SUFFIX, ZERO_POINTS_SUFFIX, BLOCK_SCALES_SUFFIX)
    arrays = {
        initializer.name: numpy_helper.to_array(initializer)
        for initializer in model.graph.initializer
        if initializer.name.endswith(suffixes)
    }
    tables = {}
    for name, array in arrays.items():
        if name.endswith(CODES_SUFFIX):
            table = name[: -len(CODES_SUFFIX)]
            tables[table] = dequantized(array, arrays[table + SCALES_SUFFIX])
        elif name.endswith(BLOCKS_SUFFIX):
            table = name[: -len(BLOCKS_SUFFIX)]
            scales = arrays[table + BLOCK_SCALES_SUFFIX]
            codes = unpacked_4bit(array, 2 * array.shape[1])
            zero_points = unpacked_4bit(arrays[table + ZERO_POINTS_SUFFIX], scales.shape[1])
            tables[table] = block_dequantized(codes, zero_points, scales)
    return tables


def _axis(node) -> int:
    return next((attribute.i for attribute in node.attribute if attribute.name == "axis"), 0)


def _half_exact(array: numpy.ndarray) -> bool:
    with numpy.errstate(over="ignore"):
        return bool(numpy.array_equal(array.astype(numpy.float16).astype(numpy.float32), array))
