"""Export a segmentation model's network as an ONNX graph (needs torch and onnx).

The float32 inference copy of the model (nets/inference.py: for the
GD-Transformer the FusedGDTransformer, for a BMES tagger its emissions) is
exported with opset 18, the batch and length axes dynamic. The
GD-Transformer goes through torch's TorchScript-based exporter (its
attention tables are built for the longest padded length first, so the
graph slices them for any shorter one; the graph takes sequences up to the
max_length it was exported for). A BMES tagger goes through the
torch.export-based exporter (needs onnxscript): traced by TorchScript,
nn.MultiheadAttention keeps the example's length as a constant. A BMES
tagger's CRF scores and the labels ride in the graph's metadata
(graph_metadata.py), so ONNX Runtime alone decodes the scores.
"""
import io
import warnings
from typing import List

import numpy
import torch
from thinc.api import Model

from ..nets.crf_loss import crf_of, crf_transitions
from ..nets.inference import inference_module
from ..nets.padded_inputs import INPUT_NAMES, padded_inputs, padded_length
from .graph_metadata import graph_metadata

OPSET = 18
DYNAMIC_AXES = {
    "ids": {0: "batch", 1: "length"},
    "lengths": {0: "batch"},
    "bigrams": {0: "batch", 1: "length"},
    "criteria": {0: "batch"},
    "extras": {0: "batch", 1: "length"},
}


def export_graph(model: Model, example: List[numpy.ndarray], max_length: int) -> bytes:
    """The ONNX graph (bytes) of ``model``'s float32 network.

    model: an initialized segmentation model (GDTransformer, BMESTagger).
    example: per sequence int64 (n, 11 + K) features of a few real texts
        (featurizer.py), at least two of different lengths, to trace with.
    max_length: the longest sequence (units) the graph must take: the segmenter's max_length.
    RAISES ImportError: without the onnx package (or for a BMES tagger
        onnxscript), naming the extra to install;
        ValueError: for an empty example.
    """
    try:
        import onnx
    except ImportError as err:
        raise ImportError(
            'Exporting a segmenter to ONNX needs the onnx package: pip install "spacy-cws[export]"'
        ) from err
    if not example:
        raise ValueError("export_graph needs example features of at least one sequence")
    labels = model.attrs.get("labels", "gaps")
    longest = padded_length(numpy.zeros(max_length))
    module = inference_module(model, "float32")
    if hasattr(module, "factors"):  # FusedGDTransformer: tables for every length up to longest
        module.factors.scale(longest)
    inputs = tuple(torch.from_numpy(a) for a in padded_inputs(example, edges=labels == "gaps", is_train=False))
    axes = {**DYNAMIC_AXES, "scores": {1: "batch", 2: "gaps"} if labels == "gaps" else {0: "batch", 1: "length"}}
    # nn.TransformerEncoder's eval-mode fast path (a BMES tagger's encoder) is
    # one fused operator ONNX lacks: export the plain layers it computes.
    fastpath = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        with torch.no_grad():
            graph = _traced(module, inputs, axes) if labels == "gaps" else _exported(module, inputs)
    finally:
        torch.backends.mha.set_fastpath_enabled(fastpath)
    crf = crf_transitions(model) if crf_of(model) is not None else None
    onnx.helper.set_model_props(graph, graph_metadata(labels, longest, crf))
    return graph.SerializeToString()


def _traced(module: torch.nn.Module, inputs: tuple, axes: dict):
    """The onnx ModelProto of ``module`` by the TorchScript-based exporter.

    The tracer's warnings are not passed on to the user of export-onnx or
    adapt: the Python values they name are meant to be constants of the
    graph (the attention tables are built for the longest length before the
    trace; the loops run over the directions and the query/key/value
    stacks), and the graph is tested against torch for other lengths and
    batches (tests/backends)."""
    import onnx

    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        torch.onnx.export(
            module, inputs, buffer, input_names=list(INPUT_NAMES), output_names=["scores"],
            dynamic_axes=axes, dynamo=False, opset_version=OPSET,
        )
    return onnx.load_from_string(buffer.getvalue())


def _exported(module: torch.nn.Module, inputs: tuple):
    """The onnx ModelProto of ``module`` by the torch.export-based exporter,
    the batch and length dimensions dynamic. RAISES ImportError without onnxscript."""
    try:
        import onnxscript  # noqa: F401  (the exporter's, imported here to name the extra)
    except ImportError as err:
        raise ImportError('Exporting a BMES tagger to ONNX needs onnxscript: pip install "spacy-cws[export]"') from err
    batch, length = torch.export.Dim("batch"), torch.export.Dim("length")
    shapes = {name: {0: batch} for name in INPUT_NAMES}
    for name in ("ids", "bigrams", "extras"):
        shapes[name] = {0: batch, 1: length}
    program = torch.onnx.export(
        module, inputs, input_names=list(INPUT_NAMES), output_names=["scores"], dynamic_shapes=shapes,
        dynamo=True, opset_version=OPSET, verbose=False,
    )
    return program.model_proto
