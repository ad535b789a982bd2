"""What a ``gd_segmenter`` saves besides its config, and how it takes it back
(component_serialization.py: ``cfg``, the optional parts, then ``model``).

- cfg (JSON): the user dictionary, the records of the n-gram vectors and of
  the graph's export, the training settings (training_settings.py) and the
  inference settings it ran with (only a record: a loaded pipeline takes
  those of its config);
- featurizer (msgpack): the learned vocabularies, criteria and lexicon
  channels (featurizer.py), excluded by exclude=["featurizer"];
- graph.onnx: the network's ONNX graph, where the pipeline holds one,
  excluded by exclude=["graph"];
- model: the weights (SegmenterNetwork.weights_bytes).
"""
import dataclasses
from pathlib import Path
from typing import Any, Dict, Optional, Union

from ..component_serialization import CfgAndModelSerialization
from ..damaged_pipeline import GOOD_COPY, DamagedPipelineError
from ..nets.left_out_tables import leaves_out_tables
from .featurizer import featurizer_data
from .moved_settings import TRAINING_KEYS
from .network import GRAPH_RECORD
from .training_settings import TrainingSettings

FEATURIZER_KEY = "featurizer"
GRAPH_KEY = "graph.onnx"


class SegmenterSerialization(CfgAndModelSerialization):
    """The saved state of a Segmenter (component.py): its ``cfg``,
    ``featurizer``, ``user_words`` and ``network``, and the training settings
    its config sets (``_configured_training``), which win over saved ones."""

    def _set_training(self, values: Dict[str, Any]) -> None:
        """Take training settings (TrainingSettings; the others keep theirs) into the cfg and the featurizer.
        RAISES ValueError, TypeError: as TrainingSettings."""
        checked = TrainingSettings(**{**{key: self.cfg[key] for key in TRAINING_KEYS}, **values})
        self.cfg.update(dataclasses.asdict(checked))
        self.featurizer.word_replacement_threshold = checked.word_replacement_threshold

    def _load_cfg(self, cfg: dict) -> None:
        """Take from a saved cfg the user dictionary, the n-gram vectors' record,
        the graph's export record and the training settings (but those an earlier
        config sets: moved_settings.py); the inference settings stay those of the
        pipeline's config (so a config override such as a new default criterion
        takes effect). The learned vocabularies, criteria and lexicon channels are the featurizer's
        (_load_featurizer), or here in a pipeline saved before they had their own key."""
        self.user_words.load(cfg.get("user_words", []), cfg.get("user_tags", {}))
        self.cfg["ngram_vectors"] = cfg.get("ngram_vectors")
        self.cfg.update({key: cfg[key] for key in GRAPH_RECORD if key in cfg})
        self._set_training({**{key: cfg[key] for key in TRAINING_KEYS if key in cfg}, **self._configured_training})
        if any(key in cfg for key in ("symbols", "bigrams", "criteria")):  # the earlier format
            self._set_learned(*(cfg.get(key, []) for key in ("criteria", "symbols", "bigrams", "lexicons")))
        elif self.featurizer.channels and self.cfg["user_dictionary_mode"] == "prefer":  # its words join the matcher
            self.user_words.set_lexicons(self.featurizer.channels)

    def _load_featurizer(self, data: Optional[Union[bytes, Path]]) -> None:
        """Take the featurizer's saved data, bytes or a file (None: saved in the cfg, or excluded: kept)."""
        if data is None:
            return
        saved = featurizer_data(data.read_bytes() if isinstance(data, Path) else data)
        learned = (saved["criteria"], saved["symbols"], saved["bigrams"], saved["channels"])
        self._set_learned(*learned, saved.get("matcher"))

    def _set_learned(self, criteria, symbols, bigrams, channels, saved_matcher: Optional[bytes] = None) -> None:
        """Give the featurizer learned (or saved) criteria, vocabularies and
        lexicon channels (Featurizer.set_vocabularies, UserWords.set_lexicons)."""
        self.featurizer.criteria = list(criteria)
        self.featurizer.set_vocabularies(list(symbols), bigrams)
        self.user_words.set_lexicons(list(channels), saved_matcher)

    def _optional_parts(self) -> Dict[str, tuple]:
        """The featurizer's learned data (FEATURIZER_KEY), and the ONNX graph (GRAPH_KEY)
        where the pipeline holds one, each under its own key; both load before the weights."""
        return {
            FEATURIZER_KEY: (self.featurizer.to_bytes, self._load_featurizer),
            GRAPH_KEY: (self.network.graph_bytes, self.network.load_graph),
        }

    def _model_bytes(self) -> bytes:
        """The weights as saved (SegmenterNetwork.weights_bytes)."""
        return self.network.weights_bytes()

    def _load_model_bytes(self, data: Union[bytes, Path]) -> None:
        """Take saved weights, bytes or their file (from_disk), now or when torch needs
        them (SegmenterNetwork.load_weights: with a graph that ONNX Runtime runs, a file is never read).
        RAISES ValueError: for bytes that are not a saved model (now, or on first need);
            DamagedPipelineError: for weights saved with a graph that holds some of their tables,
            without the graph (a pipeline saved before its cfg recorded its parts, as the 0.6.x packages:
            a newer one says so from its cfg's record)."""
        if self._saved_parts is None and self.network.graph is None:
            weights = data.read_bytes() if isinstance(data, Path) else data  # read now in any case: no graph
            if leaves_out_tables(weights):
                graph = data.with_name(GRAPH_KEY) if isinstance(data, Path) else f"its part '{GRAPH_KEY}'"
                raise DamagedPipelineError(
                    f"'{self.name}' cannot load: {graph} is missing, though its weights were saved with it "
                    f"(the graph holds some of their tables). {GOOD_COPY}"
                )
            data = weights
        self.network.load_weights(data, self.name)

    _load_model_file = _load_model_bytes
