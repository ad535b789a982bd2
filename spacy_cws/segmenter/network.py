"""A segmenter's network in each form it takes: the thinc model that trains,
the ONNX graph exported from it, saved weights not yet loaded, and the
network that predicts in this process (backends/).

A pipeline loaded with a graph that ONNX Runtime runs keeps its saved weights
(bytes, or their file) until torch needs them: to train, to export, or to
predict on torch (``require_weights``), so torch is never imported to predict.
Any change of the weights drops the graph of the old ones; any change of the
weights or the backend drops the built network, and the next prediction
builds a new one.
"""
import threading
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Dict, Iterator, Optional, Sequence, Union

import numpy

from thinc.api import Model

from ..backends.choice import ONNXRUNTIME, chosen_backend, require_torch
from ..backends.export_options import DEFAULT_MATMULS, DEFAULT_TABLES, check_export_options
from ..backends.network_cache import NetworkCache, intra_op_threads
from ..component_serialization import model_message
from ..damaged_pipeline import GOOD_COPY, DamagedPipelineError
from ..freed_memory import release_freed_memory
from .featurizer import Featurizer

# Held while a segmenter builds its inference network (rare), so that concurrent
# first predictions build it once. Module-level: components are pickled.
_NETWORK_BUILD_LOCK = threading.Lock()
# Texts the network is traced with when exported (export_onnx).
EXPORT_EXAMPLES = ("今天北京天气很好，新华社记者报道。", "中国", "ＡＢＣ公司在2009年买了iPhone。")
# The cfg keys that record how the graph was exported (export_onnx), saved with the pipeline.
GRAPH_RECORD = ("onnx_tables", "onnx_matmuls")


class SegmenterNetwork:
    """The network of a segmenter whose features ``featurizer`` makes (its
    vocabularies, criteria and lexicon bits set the model's input dims),
    under the settings ``cfg`` (the component's cfg, read when used:
    inference_backend, inference_threads, max_length, batch_units, criterion,
    train_criteria_only; export_onnx writes GRAPH_RECORD). Calls that can fail take
    the component's name (``component``) for their messages: spaCy renames
    a component sourced into another pipeline.

    graph: the ONNX graph (export_onnx; saved under its own key): its bytes,
        or the file it was loaded from (read when needed: ONNX Runtime reads
        it itself, and the bytes are not held twice), or None.
    pending_weights: saved weights not yet loaded into the torch model
        (bytes, or their file), or None.
    torch_precision: the precision of the torch inference copy (nets/inference.py),
        "float32" unless set (Segmenter.set_inference_precision).
    cache: what runs the network at inference, built on first use after the
        weights last changed, in the process that uses it.
    """

    def __init__(self, model: Model, featurizer: Featurizer, cfg: dict):
        self.model = model
        self.featurizer = featurizer
        self.cfg = cfg
        self.graph: Optional[Union[bytes, Path]] = None
        self.pending_weights: Optional[Union[bytes, Path]] = None
        self.torch_precision = "float32"
        self.cache = NetworkCache()

    def check_initialized(self, component: str) -> None:
        """RAISES ValueError: if there is no trained network (no vocabulary, or no weights)."""
        if not self.featurizer.symbols or not (self.model.layers or self.pending_weights is not None):
            raise ValueError(
                f"The '{component}' component has no trained model: initialize it with "
                "nlp.initialize() (spacy train does this) or load a trained pipeline."
            )

    def build(self) -> None:
        """Build the model for the featurizer's vocabularies, lexicon bits and criteria, with new weights."""
        self.model.set_dim("nL", self.featurizer.n_lexicon_bits, force=True)
        self.model.set_dim("nV", self.featurizer.symbol_ids.n_unigrams, force=True)
        self.model.set_dim("nB", self.featurizer.symbol_ids.n_bigrams, force=True)
        self.model.set_dim("nC", len(self.featurizer.criteria), force=True)
        if "symbols" in self.model.attrs:  # a model reading a character LM maps them to its tokens
            self.model.attrs["symbols"] = "".join(self.featurizer.symbols)
        self.model.initialize()
        self.weights_changed()
        self.apply_freezing()

    def apply_freezing(self) -> None:
        """With ``train_criteria_only``, freeze every weight but the criterion embeddings."""
        if self.cfg["train_criteria_only"]:
            from ..nets.criterion_transfer import freeze_all_but_criteria

            freeze_all_but_criteria(self.model)

    # -- inference ------------------------------------------------------------------

    def backend(self, component: str) -> str:
        """What runs the network on the next prediction: "onnxruntime" or
        "torch" (the ``inference_backend`` setting resolved, backends/choice.py).

        RAISES ValueError, ImportError: as chosen_backend, for "onnxruntime"
            without a graph or without ONNX Runtime.
        """
        return chosen_backend(self.cfg["inference_backend"], self.graph is not None, component)

    def precision(self, component: str) -> str:
        """The precision predictions run in on this machine: on torch
        ``torch_precision``, with "auto" resolved (nets/inference.py); on ONNX
        Runtime the graph's: "float32", or "int8" where its products by weights
        are int8 (export_onnx's ``matmuls``)."""
        if self.backend(component) == ONNXRUNTIME:
            return self.inference_network(component).precision
        from ..nets.inference import resolve_precision

        return resolve_precision(self.torch_precision)

    def inference_network(self, component: str):
        """The network that predicts (backends/): the ONNX Runtime InferenceSession of
        the graph or the model's torch inference copy, per ``backend``;
        built once per set of weights and per process (a forked ``nlp.pipe``
        worker builds its own), and safe for concurrent threads.
        RAISES DamagedPipelineError: for a graph that ONNX Runtime cannot load."""
        with _NETWORK_BUILD_LOCK:
            network = self.cache.get()
            if network is None:
                if self.backend(component) == ONNXRUNTIME:
                    network = self._onnx_network(component)
                else:
                    self.require_weights(component)
                    from ..backends.torch_network import TorchNetwork

                    network = TorchNetwork(self.model, self.torch_precision)
                    network.module  # built now, under the lock
                self.cache.set(network)
            return network

    def _onnx_network(self, component: str):
        """The ONNX Runtime network of the graph (never torch in its place).
        RAISES DamagedPipelineError: naming the graph's file, for one that ONNX Runtime cannot load."""
        from ..backends.onnx_network import OnnxNetwork

        graph = str(self.graph) if isinstance(self.graph, Path) else self.graph
        try:
            return OnnxNetwork(graph, intra_op_threads(self.cfg["inference_threads"]))
        except ValueError as err:
            where = self.graph if isinstance(self.graph, Path) else "its ONNX graph (in the pipeline's bytes)"
            raise DamagedPipelineError(f"'{component}' cannot run {where}: it is damaged: {err}. {GOOD_COPY}") from err

    def forget_inference(self) -> None:
        """The weights or the backend changed: the next prediction builds a new network."""
        self.cache.clear()

    def weights_changed(self) -> None:
        """The weights changed: the graph of the old ones goes, and the network is rebuilt."""
        self.graph = None
        self.forget_inference()

    @contextmanager
    def use_params(self, params: dict, component: str) -> Iterator[None]:
        """Predict with the given parameters in this block, on torch (the graph,
        which has other weights, is set aside for the block)."""
        self.require_weights(component)
        graph, self.graph = self.graph, None
        with self.model.use_params(params):
            self.forget_inference()
            try:
                yield
            finally:
                self.graph = graph
                self.forget_inference()

    # -- the ONNX graph -----------------------------------------------------------------

    def export_onnx(
        self, component: str, calibration: Optional[Sequence[str]] = None, tables: str = DEFAULT_TABLES,
        matmuls: str = DEFAULT_MATMULS,
    ) -> None:
        """Export the network, with the current weights, as the ONNX graph that
        the pipeline keeps (Segmenter.export_onnx; saved as
        gd_segmenter/graph.onnx by to_disk, under its own key by to_bytes):
        with inference_backend "auto" or "onnxruntime", ONNX Runtime then runs
        it (backends/onnx_export.py). The graph is traced with EXPORT_EXAMPLES
        and takes sequences up to max_length. Needs torch and onnx; any later
        weight change (training, add_criterion, loading weights) drops the graph.

        The graph is compacted (backends/graph_compaction.py): weights that
        float16 holds exactly are stored in float16; with ``tables =
        "int8"`` or "int4" the n-gram tables are int8 rows or 4-bit blocks
        with their scales, and the torch model takes the same rows, so both
        backends compute with the same weights and the pipeline saves the
        tables once (in the graph).
        With ``matmuls = "int8"`` the graph's products by weights are
        int8 (backends/matmul_quantization.py); with "int8-static" their
        activations' ranges are measured on the ``calibration`` texts
        (backends/static_quantization.py), so the words do not depend on
        the batch. The cfg records ``tables`` and ``matmuls`` (GRAPH_RECORD).

        RAISES ValueError: if there is no trained network, for unknown tables
            or matmuls (backends/export_options.py), or "int8-static"
            products without calibration texts;
            ImportError: without torch or the onnx package, naming the extra.
        """
        check_export_options(tables, matmuls)
        require_torch("Exporting a segmenter to ONNX")
        from ..backends.graph_compaction import compact_graph, table_weights
        from ..backends.matmul_quantization import int8_matmuls
        from ..backends.onnx_export import export_graph
        from ..backends.static_quantization import static_int8_matmuls
        from ..nets.module_weights import model_table_names, set_table_rows

        self.check_initialized(component)
        self.require_weights(component)
        ids = self.featurizer.criterion_ids([None] * len(EXPORT_EXAMPLES), self.cfg["criterion"], component)
        _, _, example = self.featurizer.featurize(list(EXPORT_EXAMPLES), ids)
        quantized_tables = model_table_names(self.model) if tables != "float16" else ()
        graph = export_graph(self.model, example, self.cfg["max_length"])
        if matmuls == "int8":
            graph = int8_matmuls(graph)
        elif matmuls == "int8-static":
            graph = static_int8_matmuls(graph, self._calibration_feeds(calibration or (), component))
        graph = compact_graph(graph, quantized_tables, bits=4 if tables == "int4" else 8)
        set_table_rows(self.model, table_weights(graph))
        self.graph = graph
        self.cfg.update(zip(GRAPH_RECORD, (tables, matmuls)))
        self.forget_inference()

    def _calibration_feeds(self, texts: Sequence[str], component: str) -> Iterator[Dict[str, numpy.ndarray]]:
        """The graph inputs of ``texts``, batch by batch as inference makes
        them (nets/inference_batches.py).
        RAISES ValueError: for no text."""
        from ..nets.inference_batches import batches_by_padded_length
        from ..nets.padded_inputs import INPUT_NAMES, ONNX_LENGTH_MULTIPLE, padded_inputs

        texts = [text for text in texts if text.strip()]
        if not texts:
            raise ValueError(
                f"'{component}': \"int8-static\" products by weights measure the activations' ranges on "
                "calibration text: give some (export-onnx --calibration FILE, a few hundred sentences)"
            )
        ids = self.featurizer.criterion_ids([None] * len(texts), self.cfg["criterion"], component)
        _, _, sequences = self.featurizer.featurize(texts, ids)
        edges = self.model.attrs.get("labels", "gaps") == "gaps"
        for batch in batches_by_padded_length(sequences, self.cfg["batch_units"], ONNX_LENGTH_MULTIPLE):
            inputs = padded_inputs([sequences[i] for i in batch], edges, False, ONNX_LENGTH_MULTIPLE)
            yield dict(zip(INPUT_NAMES, inputs))

    def remove_onnx(self, component: str) -> None:
        """Drop the graph: predictions run on torch (its tables, if it holds
        any, stay the torch model's)."""
        self.require_weights(component)
        self.graph = None
        self.forget_inference()

    def graph_bytes(self) -> Optional[bytes]:
        """The graph's bytes (read from its file where it was loaded from one), or None.

        RAISES FileNotFoundError: if the folder the pipeline was loaded from no longer holds it.
        """
        return self.graph.read_bytes() if isinstance(self.graph, Path) else self.graph

    def load_graph(self, graph: Optional[Union[bytes, Path]]) -> None:
        """Take a saved graph: its bytes or its file (None: the pipeline has none)."""
        self.graph = graph
        self.forget_inference()

    # -- saved weights ------------------------------------------------------------------

    def weights_bytes(self) -> bytes:
        """The weights as saved: the pending ones where they were never
        loaded; without the tables the graph holds (nets/module_weights.py
        tables_left_out), which load back from it."""
        if isinstance(self.pending_weights, Path):
            return self.pending_weights.read_bytes()
        if self.pending_weights is not None:
            return self.pending_weights
        if self.graph is None:
            return self.model.to_bytes()
        from ..backends.graph_compaction import table_weights
        from ..nets.module_weights import tables_left_out

        with tables_left_out(self.model, list(table_weights(self.graph_bytes()))):
            return self.model.to_bytes()

    def load_weights(self, data: Union[bytes, Path], component: str) -> None:
        """Take saved weights, bytes or their file (after the graph, if any).
        With a graph that ONNX Runtime will run they are kept as they are
        (torch is not imported; a file is not read until needed); else they
        load into the model now.

        RAISES ValueError: for bytes that are not a saved model (now, or on first need).
        """
        if self._defers_weights(component):
            self.pending_weights = data
            self.forget_inference()
        else:
            graph = self.graph
            data = data.read_bytes() if isinstance(data, Path) else data
            self._load_message(model_message(self.model, data), component)
            self.graph = graph  # loaded with these weights

    def _defers_weights(self, component: str) -> bool:
        """Whether saved weights wait until torch needs them: with a graph that ONNX Runtime runs."""
        try:
            return self.graph is not None and self.backend(component) == ONNXRUNTIME
        except (ImportError, ValueError):  # the backend's own error comes on the first prediction
            return False

    def require_weights(self, component: str) -> None:
        """Load pending weights into the torch model (imports torch); the graph stays.

        RAISES ImportError: without torch, naming the train extra;
            FileNotFoundError: if the folder the pipeline was loaded from no
            longer holds its weights.
        """
        require_torch("Training, exporting, or running a segmenter on torch")
        if self.pending_weights is not None:
            graph = self.graph
            self._load_message(model_message(self.model, self.weights_bytes()), component)
            self.graph = graph

    def _load_message(self, msg: dict, component: str) -> None:
        """Load decoded saved weights (component_serialization.model_message),
        building the model first if it has no layers; the tables saved in the
        graph only take their rows from it. The graph goes (the callers keep
        one saved with these weights).

        RAISES ValueError: for weights of another model configuration, or corrupt ones.
        """
        from ..nets.module_weights import load_model_message, weights_follow

        self.pending_weights = None
        tables = None
        if self.graph is not None:
            from ..backends.graph_compaction import table_weights

            tables = partial(table_weights, self.graph_bytes())  # the rows of tables saved in the graph only
        if not self.model.layers:
            # Built with no initial weights: the saved ones become its weights
            # (nets/module_weights.py), so they are never held twice.
            with weights_follow():
                self.build()
        try:
            load_model_message(self.model, msg, tables)
        except Exception as err:  # shape or key errors from thinc/torch
            raise ValueError(
                f"'{component}' cannot load its model weights: the file is corrupt or was "
                f"saved with another model configuration ({type(err).__name__}: {err})"
            ) from err
        self.weights_changed()
        self.apply_freezing()
        release_freed_memory()  # the weights' bytes and float16 copies (freed_memory.py)
