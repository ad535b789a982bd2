"""A segmenter's network run by ONNX Runtime, from its exported graph (onnx_export.py).

Needs no torch: the features are padded with numpy (nets/padded_inputs.py),
an InferenceSession runs the float32 graph with ONNX Runtime's own graph
optimisations, and the scores are decoded with numpy
(decoding/word_start_decoders.py). ``InferenceSession.run`` is thread-safe,
so one network serves any number of threads.
"""
from typing import List, Union

import numpy

from ..decoding.word_start_decoders import word_start_decoder
from ..freed_memory import release_freed_memory
from ..nets.padded_inputs import INPUT_NAMES, ONNX_LENGTH_MULTIPLE, padded_inputs, padded_length, unpadded_scores
from .choice import ONNXRUNTIME_INSTALL
from .graph_metadata import graph_products, read_metadata
from .unsigned_weights import graph_for_this_cpu


def import_onnxruntime():
    """The onnxruntime module. RAISES ImportError naming the extra to install."""
    try:
        import onnxruntime
    except ImportError as err:
        raise ImportError(f"Running a segmenter's ONNX graph needs ONNX Runtime: {ONNXRUNTIME_INSTALL}") from err
    return onnxruntime


def load_errors(onnxruntime) -> tuple:
    """What an InferenceSession raises for bytes or a file that is no ONNX
    model it can run: not protobuf, no graph, an invalid graph, no such file."""
    errors = onnxruntime.capi.onnxruntime_pybind11_state
    return (errors.InvalidProtobuf, errors.InvalidArgument, errors.InvalidGraph, errors.Fail, errors.NoSuchFile)


class OnnxNetwork:
    """Scores of an exported segmentation graph, by an ONNX Runtime InferenceSession on the CPU.

    graph: the ONNX model's bytes (onnx_export.export_graph), or its file's path.
    threads: the InferenceSession's intra-op threads (0: ONNX Runtime's default, one
        per physical core); inter-op work runs on the calling thread.
    On an x86 CPU without VNNI, the int8 weights of the graph's products run
    as uint8 (unsigned_weights.py), which gives the words they give with VNNI.
    RAISES ImportError: without ONNX Runtime (naming the extra to install),
        or without onnx on a CPU that needs that rewrite;
        ValueError: for bytes that ONNX Runtime cannot load (not an ONNX
        model: a damaged file), or a graph spacy-cws did not export.
    """

    backend = "onnxruntime"
    length_multiple = ONNX_LENGTH_MULTIPLE  # of a batch's padded length

    def __init__(self, graph: Union[bytes, str], threads: int = 0):
        onnxruntime = import_onnxruntime()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        self.threads = threads
        try:
            with graph_for_this_cpu(graph) as runnable:
                self.inference = onnxruntime.InferenceSession(runnable, options, providers=["CPUExecutionProvider"])
        except load_errors(onnxruntime) as err:
            raise ValueError(f"ONNX Runtime cannot load it ({type(err).__name__}: {err})") from err
        release_freed_memory()  # the parsed graph, its initializers now the InferenceSession's (freed_memory.py)
        metadata = self.inference.get_modelmeta().custom_metadata_map
        self.labels, self.longest, crf = read_metadata(metadata)
        self.precision = graph_products(metadata)  # of the products by weights: "float32" or "int8"
        self.decoder = word_start_decoder(self.labels, None if crf is None else tuple(numpy.asarray(p) for p in crf))
        self._edges = self.labels == "gaps"  # BOS and EOS around each sequence; gaps 0..n
        self._inputs = {node.name for node in self.inference.get_inputs()}  # the exporter drops unused inputs

    def scores(self, batch: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """batch: per sequence int64 (n, 11 + K) features (featurizer.py), each
        with padded_length at most ``longest``.
        RETURNS per sequence float32 scores: (H, n + 1, 2) gap logits or (1, n, 4) emissions.
        RAISES ValueError: for a sequence longer than the graph takes (a larger
            max_length than at export).
        """
        if not batch:
            return []
        too_long = max(padded_length(seq, self.length_multiple) for seq in batch)
        if too_long > self.longest:
            raise ValueError(
                f"the ONNX graph takes sequences of at most {self.longest - 2} units, got one of "
                f"{max(map(len, batch))}: export it again at this max_length, or use inference_backend = \"torch\""
            )
        inputs = padded_inputs(batch, edges=self._edges, is_train=False, length_multiple=self.length_multiple)
        feed = {name: array for name, array in zip(INPUT_NAMES, inputs) if name in self._inputs}
        (scores,) = self.inference.run(["scores"], feed)
        if self._edges:  # (H, B, T - 1, 2): gaps 0..n of each sequence
            return unpadded_scores(scores, [len(seq) + 1 for seq in batch], batch_axis=1)
        return unpadded_scores(scores[None], [len(seq) for seq in batch], batch_axis=1)
