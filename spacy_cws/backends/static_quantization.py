"""Static int8 matrix products (``export_onnx(matmuls="int8-static")``): int8 speed, words that do not
depend on the batch.

Dynamic int8 (matmul_quantization.py) quantises each activation with its
batch's own range, so a sequence's words depend on the sequences batched
with it. Here each activation's range is measured once, on calibration text,
when the graph is exported (the smallest and largest value over all of it,
"MinMax"), and the graph's products are rewritten from the dynamic graph:

1. each DynamicQuantizeLinear becomes a QuantizeLinear with the calibrated
   scale and zero point (uint8, asymmetric: the ones DynamicQuantizeLinear
   would compute for a batch spanning the whole range);
2. each MatMulInteger with its Cast, scale Mul and bias Add becomes one
   MatMulIntegerToFloat (ONNX Runtime's com.microsoft operator), which
   dequantises and adds the bias in its kernel;
3. between a stacked layer's two feed-forward products the encoders stay
   apart: where the unstacked first products are concatenated, scaled,
   biased, passed through a ReLU and split again for the second products,
   each first product takes the scale and bias itself and feeds its
   second product's QuantizeLinear directly, whose zero point is 0, so its
   saturation at 0 is the ReLU.

A value outside the calibrated range saturates. Words, F1 and speed
against float32 products: docs/experiments/inference.md (int8 matrix
products).
"""
from collections import defaultdict
from typing import Dict, Iterable, List, Tuple

import numpy

from .graph_compaction import CONTRIB_DOMAIN, import_contrib_domain, import_onnx
from .graph_metadata import PRODUCTS_KEY
from .matmul_quantization import int8_matmuls
from .unsigned_weights import graph_for_this_cpu

Ranges = Dict[str, Tuple[float, float]]


def calibrated_ranges(graph: bytes, feeds: Iterable[Dict[str, numpy.ndarray]]) -> Ranges:
    """The (min, max) of every dynamically quantised activation of ``graph``
    (a serialized dynamic-int8 model) over the ``feeds`` (input name ->
    array, as OnnxNetwork.scores makes them), its int8 products run exactly
    on any CPU (unsigned_weights.py), so an export calibrates the same everywhere.

    RAISES ValueError: if ``feeds`` is empty.
    """
    onnx = import_onnx()
    import onnxruntime

    model = onnx.load_from_string(graph)
    names = [node.input[0] for node in model.graph.node if node.op_type == "DynamicQuantizeLinear"]
    for name in names:
        model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    with graph_for_this_cpu(model.SerializeToString()) as runnable:  # ranges that do not depend on the CPU
        probe = onnxruntime.InferenceSession(runnable, providers=["CPUExecutionProvider"])
    inputs = {node.name for node in probe.get_inputs()}
    lows: Dict[str, float] = {}
    highs: Dict[str, float] = {}
    for feed in feeds:
        values = probe.run(names, {name: array for name, array in feed.items() if name in inputs})
        for name, value in zip(names, values):
            lows[name] = min(lows.get(name, 0.0), float(value.min()))
            highs[name] = max(highs.get(name, 0.0), float(value.max()))
    if not lows and names:
        raise ValueError("Static int8 products need calibration text: no batch was given")
    return {name: (lows[name], highs[name]) for name in names}


def static_int8_matmuls(graph: bytes, feeds: Iterable[Dict[str, numpy.ndarray]]) -> bytes:
    """``graph`` (a serialized float32 model) with static int8 products
    calibrated on ``feeds`` (module docstring), its metadata saying
    "int8-static". Run it before ``compact_graph``, as ``int8_matmuls``.

    RAISES ImportError: without the onnx package, naming the extra;
        ValueError: without calibration batches.
    """
    onnx = import_onnx()
    dynamic = int8_matmuls(graph)
    ranges = calibrated_ranges(dynamic, feeds)
    model = onnx.load_from_string(dynamic)
    _static_activations(model, ranges)
    _fused_products(model)
    _encoders_kept_apart(model)
    props = {prop.key: prop.value for prop in model.metadata_props}
    onnx.helper.set_model_props(model, {**props, PRODUCTS_KEY: "int8-static"})
    onnx.checker.check_model(model)
    return model.SerializeToString()


def _consumers(nodes: List) -> Tuple[Dict[str, List], Dict[str, object]]:
    """Per tensor name the nodes that read it, and the node that makes it."""
    users: Dict[str, List] = defaultdict(list)
    makers: Dict[str, object] = {}
    for node in nodes:
        for name in node.input:
            users[name].append(node)
        for name in node.output:
            makers[name] = node
    return users, makers


def _replace_nodes(graph, nodes: List, dropped: set, replaced: Dict[int, object]) -> None:
    """Make ``nodes`` (``list(graph.node)``, held since the ids in ``dropped``
    and ``replaced`` were taken: a protobuf element's Python object, and so
    its id, lives only as long as a reference to it) the graph's nodes, less
    the dropped ones, with the replaced ones swapped in; drop the nodes
    whose outputs nothing reads any more (e.g. the Constant shapes of a
    removed Reshape: ONNX Runtime warns of each when an InferenceSession starts) and
    the initializers no node reads."""
    kept_nodes = [replaced.get(id(node), node) for node in nodes if id(node) not in dropped or id(node) in replaced]
    outputs = {output.name for output in graph.output}
    while True:
        read = outputs.union(name for node in kept_nodes for name in node.input)
        live = [node for node in kept_nodes if any(name in read for name in node.output)]
        if len(live) == len(kept_nodes):
            break
        kept_nodes = live
    del graph.node[:]
    graph.node.extend(kept_nodes)
    used = {name for node in graph.node for name in node.input}
    kept = [initializer for initializer in graph.initializer if initializer.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def _static_activations(model, ranges: Ranges) -> None:
    """Rewrite 1: DynamicQuantizeLinear -> QuantizeLinear with calibrated
    scale and zero point, stored under the names of the dynamic outputs."""
    from onnx import helper, numpy_helper

    graph = model.graph
    nodes = list(graph.node)
    replaced = {}
    for node in nodes:
        if node.op_type != "DynamicQuantizeLinear":
            continue
        low, high = ranges[node.input[0]]
        scale = (high - low) / 255.0 or 1.0
        zero_point = int(numpy.clip(numpy.round(-low / scale), 0, 255))
        quantized, scale_name, zero_name = node.output
        graph.initializer.append(numpy_helper.from_array(numpy.array(scale, dtype=numpy.float32), scale_name))
        graph.initializer.append(numpy_helper.from_array(numpy.array(zero_point, dtype=numpy.uint8), zero_name))
        replaced[id(node)] = helper.make_node(
            "QuantizeLinear", [node.input[0], scale_name, zero_name], [quantized], name=f"{node.name}/static"
        )
    _replace_nodes(graph, nodes, set(replaced), replaced)


def _fused_products(model) -> None:
    """Rewrite 2: MatMulInteger -> Cast -> Mul(a_scale * b_scale) [-> Add(bias)]
    -> one MatMulIntegerToFloat."""
    from onnx import helper

    graph = model.graph
    nodes = list(graph.node)
    users, makers = _consumers(nodes)
    weights = {initializer.name: initializer for initializer in graph.initializer}
    dropped, replaced = set(), {}
    for node in nodes:
        if node.op_type != "MatMulInteger" or len(users[node.output[0]]) != 1:
            continue
        (cast,) = users[node.output[0]]
        if cast.op_type != "Cast" or len(users[cast.output[0]]) != 1:
            continue
        (mul,) = users[cast.output[0]]
        scales = makers.get(next((name for name in mul.input if name != cast.output[0]), ""))
        if mul.op_type != "Mul" or scales is None or scales.op_type != "Mul":
            continue
        a_scale, b_scale = scales.input
        output, bias = mul.output[0], []
        following = users[output]
        if len(following) == 1 and following[0].op_type == "Add":
            other = next(name for name in following[0].input if name != output)
            if other in weights and len(weights[other].dims) == 1:
                output, bias = following[0].output[0], [other]
                dropped.add(id(following[0]))
        quantized, weight, a_zero, b_zero = node.input
        replaced[id(node)] = helper.make_node(
            "MatMulIntegerToFloat", [quantized, weight, a_scale, b_scale, a_zero, b_zero, *bias], [output],
            name=f"{node.name}/to_float", domain=CONTRIB_DOMAIN,
        )
        dropped.update({id(node), id(cast), id(mul)})
    # The scale products (a_scale * b_scale), read by nothing now, go with them.
    _replace_nodes(graph, nodes, dropped, replaced)
    import_contrib_domain(model)


def _constant(name: str, weights: dict, makers: dict):
    """The value of a constant tensor (an initializer, a Constant node, or a
    Cast of an initializer), or None."""
    from onnx import numpy_helper

    if name in weights:
        return numpy_helper.to_array(weights[name]).astype(numpy.float32)
    node = makers.get(name)
    if node is not None and node.op_type == "Constant":
        return numpy_helper.to_array(node.attribute[0].t).astype(numpy.float32)
    if node is not None and node.op_type == "Cast" and node.input[0] in weights:
        return numpy_helper.to_array(weights[node.input[0]]).astype(numpy.float32)
    return None


def _encoders_kept_apart(model) -> None:
    """Rewrite 3: MatMulIntegerToFloat_e -> Unsqueeze -> Concat -> Mul(k) ->
    Add(bias) -> Relu -> Split -> Squeeze_e -> QuantizeLinear_e (zero point
    0) becomes MatMulIntegerToFloat_e(b_scale * k_e, bias_e) ->
    QuantizeLinear_e (its saturation at 0 is the ReLU)."""
    from onnx import numpy_helper

    graph = model.graph
    nodes = list(graph.node)
    users, makers = _consumers(nodes)
    weights = {initializer.name: initializer for initializer in graph.initializer}

    def single(name: str, op_type: str):
        found = users.get(name, [])
        return found[0] if len(found) == 1 and found[0].op_type == op_type else None

    dropped = set()
    for concat in nodes:
        unsqueezes = [makers.get(name) for name in concat.input] if concat.op_type == "Concat" else []
        if not unsqueezes or not all(u is not None and u.op_type == "Unsqueeze" for u in unsqueezes):
            continue
        products = [makers.get(u.input[0]) for u in unsqueezes]
        if not all(p is not None and p.op_type == "MatMulIntegerToFloat" and len(p.input) == 6 for p in products):
            continue
        mul = single(concat.output[0], "Mul")
        add = mul and single(mul.output[0], "Add")
        relu = add and single(add.output[0], "Relu")
        split = relu and single(relu.output[0], "Split")
        if split is None or len(split.output) != len(products):
            continue
        factor = _constant(next(n for n in mul.input if n != concat.output[0]), weights, makers)
        bias = _constant(next(n for n in add.input if n != mul.output[0]), weights, makers)
        squeezes = [single(name, "Squeeze") for name in split.output]
        quantizers = [s and single(s.output[0], "QuantizeLinear") for s in squeezes]
        if factor is None or bias is None or not all(quantizers):
            continue
        if any(numpy_helper.to_array(weights[q.input[2]]).item() != 0 for q in quantizers):
            continue
        for e, (product, quantizer) in enumerate(zip(products, quantizers)):
            b_scale = numpy_helper.to_array(weights[product.input[3]])
            columns = b_scale.shape[-1]
            factor_e = numpy.broadcast_to(
                factor.reshape(-1, columns) if factor.size > 1 else factor, (len(products), columns)
            )[e]
            bias_e = numpy.broadcast_to(bias.reshape(-1, columns), (len(products), columns))[e]
            scale_name, bias_name = f"{product.name}/b_scale_scaled", f"{product.name}/bias"
            graph.initializer.append(numpy_helper.from_array((b_scale * factor_e).astype(numpy.float32), scale_name))
            graph.initializer.append(numpy_helper.from_array(bias_e.astype(numpy.float32), bias_name))
            product.input[3] = scale_name
            product.input.append(bias_name)
            quantizer.input[0] = product.output[0]
        dropped.update(id(node) for node in [concat, mul, add, relu, split, *unsqueezes, *squeezes])
    _replace_nodes(graph, nodes, dropped, {})
