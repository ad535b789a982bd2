"""The trainable ``gd_segmenter`` component: merges characters into words.

The pipeline's tokenizer (``spacy-cws.CharPretokenizer.v1``) makes each
character a token; this component scores every gap between units with the
GD-Transformer (Duan & Zhao 2020), or tags every unit B/M/E/S with a BMES
tagger (SAN-CRF, seed 003; the multi-criteria Transformer, seed 004), as its
model's ``attrs["labels"]`` says, and merges each Doc's characters into
its predicted words in place (merge_words.py). Training labels come from the reference
Doc's word starts (``token.idx``), so ``spacy train`` needs only DocBins of
gold-segmented sentences.
"""
import dataclasses
import threading
from collections import Counter
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from itertools import chain, islice
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy
from spacy.errors import Errors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.training.batchers import minibatch_by_padded_size
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate
from thinc.types import Floats3d

from ..component_serialization import CfgAndModelSerialization, model_message
from ..backends.choice import ONNXRUNTIME, check_backend, chosen_backend, require_torch
from ..backends.network_cache import NetworkCache, intra_op_threads
from .character_view import CharacterView, Normaliser
from ..models.padded_inputs import padded_length
from ..freed_memory import release_freed_memory
from .decoding import decode_words
from .doc_text import doc_text, forget_text
from .boundary_probabilities import character_gap_probabilities, unit_start_probabilities
from .dictionary_bonus import add_dictionary_bonus
from .gap_labels import unit_starts_word
from .criteria import training_criteria
from .featurizer import Featurizer, featurizer_data
from .merge_words import SegmentedText, merge_words
from .gap_probs_extension import ScoredText, set_gap_probs
from .symbol_ids import SymbolIds
from ..lexicon import Lexicon, load_lexicon, training_lexicon
from ..lexicon.channel_storage import pack_channel
from ..lexicon.jackknife import training_word_folds
from ..lexicon.word_tagger import word_tags
from ..lexicon.match_features import EVERY_FOLD, text_fold
from .span_constraints import apply_span_constraints
from .settings import USER_DICTIONARY_MODES, SegmenterSettings, default_settings, takes_settings
from .unbroken_spans import PatternSpans, grapheme_clusters
from .unit_windows import unit_windows
from .user_dictionary import UserDictionary

DEFAULT_MODEL_CONFIG = """
[model]
@architectures = "spacy-cws.GDTransformer.v1"
width = 256
depth = 6
n_heads = 4
ff_width = 1024
dropout = 0.1
attention_dropout = 0.0
sigma = 4.0
gaussian = true
directional = true
encoders = ["centre", "forward", "backward"]
fusion = "gate"
position = "none"
hired = true
highway_input = true
highway_output = true
bigram_width = 0
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_MODEL_CONFIG)["model"]
# The file (and serialization key) of the featurizer's learned data: msgpack
# (featurizer.py), excluded by exclude=["featurizer"].
FEATURIZER_KEY = "featurizer"
# The file (and serialization key) of the network's ONNX graph, when the
# pipeline holds one: excluded by exclude=["graph"].
GRAPH_KEY = "graph.onnx"
# Held while a segmenter builds its inference network (rare), so that concurrent
# first predictions build it once. Module-level: components are pickled.
_NETWORK_BUILD_LOCK = threading.Lock()
# Texts the network is traced with when exported (export_onnx).
EXPORT_EXAMPLES = ("今天北京天气很好，新华社记者报道。", "中国", "ＡＢＣ公司在2009年买了iPhone。")
# Units featurized and scored at a time (unit_windows.py): about 2 MB of
# features; a batch of 256 CTB6 sentences (about 12,000 units) fits in one
# window. Peak RSS for one 1,000,000-character text grows with it (segment_texts
# of zh_cws_gd_sm: +71 MB at 16,384 units, +133 MB at 65,536).
WINDOW_UNITS = 16384


@Language.factory(
    "gd_segmenter",
    assigns=["token.text"],
    default_config={
        "model": DEFAULT_MODEL,
        **default_settings(),
        "scorer": {"@scorers": "spacy-cws.segmentation_scorer.v1"},
    },
    default_score_weights={"token_f": 1.0, "token_p": 0.0, "token_r": 0.0, "token_acc": None},
    retokenizes=True,
)
@takes_settings
def make_gd_segmenter(nlp: Language, name: str, model: Model, scorer: Optional[Callable], **settings) -> "Segmenter":
    """Create a ``gd_segmenter``; ``settings`` are SegmenterSettings (settings.py)."""
    return Segmenter(nlp.vocab, model, name, scorer=scorer, **settings)


class Segmenter(CfgAndModelSerialization, TrainablePipe):
    """Chinese word segmentation over a character pretokenized Doc, by gap
    scoring or B/M/E/S tagging (label_schemes.py)."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "gd_segmenter",
        *,
        scorer: Optional[Callable] = None,
        **settings,
    ):
        """settings: keyword SegmenterSettings (settings.py), the rest their defaults.

        RAISES ValueError, TypeError: as SegmenterSettings.
        """
        checked = SegmenterSettings(**settings)
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg = {
            **dataclasses.asdict(checked),
            "user_words": [],
            "user_tags": {},
            "lexicons": [],
            "ngram_vectors": None,
        }
        settings_of_model = model.attrs.get("settings", {})
        self.featurizer = Featurizer(
            Normaliser(fold_width=checked.fold_width, collapse_runs=checked.collapse_runs, opencc=checked.opencc),
            checked.max_length,
            word_slots=settings_of_model.get("word_slots", 0),
            trigrams=bool(settings_of_model.get("trigram_width", 0)),
            word_replacement_threshold=checked.word_replacement_threshold,
        )
        self._user_dictionary = UserDictionary()
        self._pattern_spans = PatternSpans(checked.unbroken_patterns)
        # The network's ONNX graph (export_onnx; saved under GRAPH_KEY): its
        # bytes, or the file it was loaded from (read when needed: ONNX
        # Runtime reads it itself, and the bytes are not held twice), or None.
        self._graph: Optional[Union[bytes, Path]] = None
        # Saved weights not yet loaded into the torch model: a pipeline loaded
        # with a graph that ONNX Runtime runs needs torch only to train,
        # export or predict on torch (_require_weights).
        self._pending_weights: Optional[bytes] = None
        # What runs the network at inference (backends/), built on first use
        # after the weights last changed, in the process that uses it.
        self._network = NetworkCache()

    # -- features -----------------------------------------------------------------

    @property
    def normaliser(self) -> Normaliser:
        """The model's view of a text (featurizer.py)."""
        return self.featurizer.normaliser

    @property
    def symbols(self) -> List[str]:
        """The model's symbol vocabulary (training characters), id = index + 4."""
        return self.featurizer.symbols

    @property
    def bigrams(self) -> List[Tuple[str, str]]:
        """The model's bigram vocabulary: (left, right) symbol pairs, id = index + 4."""
        return self.featurizer.bigrams

    def _set_vocabularies(self, symbols: Sequence[str], bigrams: Union[str, Sequence[Sequence[str]]]) -> None:
        """bigrams: (left, right) pairs, or pack_bigrams' string of them."""
        self.featurizer.set_vocabularies(symbols, bigrams)

    @property
    def criteria(self) -> List[str]:
        """The criteria of a multi-criteria model (its training corpora); [] otherwise."""
        return self.featurizer.criteria

    def _set_criteria(self, criteria: Sequence[str]) -> None:
        self.featurizer.criteria = list(criteria)

    @property
    def lexicons(self) -> List[str]:
        """The names of the lexicon channels the model sees (e.g. "training", "jieba")."""
        return self.featurizer.lexicons

    def lexicon_words(self, name: str) -> Dict[str, int]:
        """The words of the lexicon channel ``name``, each with its fold mask
        (EVERY_FOLD for a word every training fold sees).

        RAISES KeyError: naming the channels, for an unknown name.
        """
        try:
            return self.featurizer.lexicon_words(name)
        except KeyError:
            raise KeyError(f"'{self.name}' has no lexicon channel '{name}' (channels: {self.lexicons})") from None

    def _set_lexicons(self, channels: Sequence[dict], saved_matcher: Optional[bytes] = None) -> None:
        """channels: stored channels (lexicon/channel_storage.py). In "prefer"
        mode the user dictionary's words join the last channel (in the
        matcher only) and its POS tags win over the channels'.
        saved_matcher: the channels' matcher as saved (featurizer.py)."""
        prefer = self.cfg["user_dictionary_mode"] == "prefer"
        extra_words = self._user_dictionary.words if prefer and len(self._user_dictionary) else ()
        extra_tags = self.cfg["user_tags"] if prefer else None
        self.featurizer.set_lexicons(channels, extra_words, extra_tags, saved_matcher)
        # The channels' names only: the words are the featurizer's, saved under its own key.
        self.cfg["lexicons"] = [{"name": name} for name in self.featurizer.lexicons]

    # -- user dictionary --------------------------------------------------------------

    @property
    def words(self) -> List[str]:
        """The user dictionary's words, in the order they were added."""
        return self._user_dictionary.words

    def set_user_dictionary_mode(self, mode: str) -> None:
        """Switch the user dictionary between "force" and "prefer" until it is saved and loaded again
        (a saved pipeline takes the mode of its config).

        RAISES ValueError: for another mode.
        """
        if mode not in USER_DICTIONARY_MODES:
            raise ValueError(f"The user dictionary mode must be one of {USER_DICTIONARY_MODES}, got '{mode}'")
        self.cfg["user_dictionary_mode"] = mode
        self._set_lexicons(self.featurizer.channels)

    def add_words(self, words: Iterable[str]) -> None:
        """Add words to the user dictionary (saved with the pipeline). In "force"
        mode every occurrence becomes one word (longest first, then leftmost;
        Latin words only at Latin word boundaries; see user_dictionary.py); in
        "prefer" mode they join the model's last lexicon channel. The POS tags
        of a Lexicon (e.g. read_user_dictionary's) are kept for a model with
        word slots (seed 003's target-domain word-POS lexicon; they win over
        the channels' tags).

        RAISES ValueError: for an empty word; TypeError: for a word that is not a str.
        """
        if isinstance(words, Lexicon):
            self.cfg["user_tags"].update({word: entry.pos for word, entry in words.items() if entry.pos})
        self._user_dictionary.add(words)
        self._user_words_changed()

    def remove_words(self, words: Iterable[str]) -> None:
        """Remove words (and their POS tags) from the user dictionary (absent words are ignored)."""
        words = [words] if isinstance(words, str) else list(words)
        for word in words:
            self.cfg["user_tags"].pop(word, None)
        self._user_dictionary.remove(words)
        self._user_words_changed()

    def _user_words_changed(self) -> None:
        self.cfg["user_words"] = self._user_dictionary.words
        if self.cfg["user_dictionary_mode"] == "prefer":
            self._set_lexicons(self.featurizer.channels)

    def _constrain(self, text: str, view: CharacterView, words: numpy.ndarray) -> numpy.ndarray:
        """The words with (force mode) the dictionary words whole, and pattern
        spans, the view's runs and grapheme clusters never cut inside
        (span_constraints.py)."""
        force = self.cfg["user_dictionary_mode"] == "force" and len(self._user_dictionary)
        whole = self._user_dictionary.matches(text) if force else numpy.zeros((0, 2), dtype=numpy.int64)
        unbroken = numpy.concatenate([self._pattern_spans(text), view.runs, grapheme_clusters(text)])
        return apply_span_constraints(text, words, whole, unbroken)

    def _featurize(
        self,
        texts: Sequence[str],
        criteria: Sequence[Optional[str]],
        folds: Optional[Sequence[int]] = None,
        training: bool = False,
    ) -> Tuple[List[CharacterView], List[List[Tuple[int, int]]], List[numpy.ndarray]]:
        """Views, sequence spans per text, and per sequence (flat, in order) the
        int64 (n, 11 + K) features of its symbols (Featurizer.featurize).

        criteria: per text its criterion name, or None for the default.
        folds: per training text its jackknife fold; None at inference.
        training: whether the word slots replace words by POS (seed 003 eq. 15).
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        ids = self.featurizer.criterion_ids(criteria, self.cfg["criterion"], self.name)
        return self.featurizer.featurize(texts, ids, folds, training)

    def _check_initialized(self) -> None:
        if not self.symbols or not (self.model.layers or self._pending_weights is not None):
            raise ValueError(
                f"The '{self.name}' component has no trained model: initialize it with "
                "nlp.initialize() (spacy train does this) or load a trained pipeline."
            )

    # -- inference ------------------------------------------------------------------

    def segment_texts(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]] = None
    ) -> List[numpy.ndarray]:
        """Segment raw texts. RETURNS per text int64 (n_words, 2) of [start, end)
        character offsets of its words; whitespace is in no word.

        Features and scores are made ``WINDOW_UNITS`` units at a time
        (unit_windows.py), so a long text needs scratch memory for one window,
        not for the whole text; the words are those of one pass.

        criteria: per text the criterion to segment by (None: the default);
            used by multi-criteria models only.
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        return self._segment(texts, criteria, with_probs=False)[0]

    def segment_with_probs(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]] = None
    ) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
        """Segment raw texts and give the probability of a boundary at every
        gap between characters (boundary_probabilities.py), in one pass.

        RETURNS (words, gap_probs): per text the int64 (n_words, 2) word
            offsets of ``segment_texts``, and float32 (max(len(text) - 1, 0),)
            where element i is the probability of a word boundary between
            text[i] and text[i + 1]: the model's (head 0's softmax for gap
            scores, CRF marginals for B/M/E/S), 1 next to whitespace, 0 inside
            a run. The words may disagree with them where constraints
            (force-mode user words, unbroken spans) overrule the model.
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        return self._segment(texts, criteria, with_probs=True)

    def _segment(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]], with_probs: bool
    ) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
        """segment_texts, and with_probs the gap probabilities (else [])."""
        self._check_initialized()
        texts = list(texts)
        ids = self.featurizer.criterion_ids(criteria or [None] * len(texts), self.cfg["criterion"], self.name)
        views, spans = self.featurizer.views_and_spans(texts)
        prefer = self._prefers_by_bonus()
        matches = [self._user_dictionary.matches(text) for text in texts] if prefer else []
        network = self._inference_network()
        span_starts: List[List[numpy.ndarray]] = [[] for _ in texts]
        span_probs: List[List[numpy.ndarray]] = [[] for _ in texts]
        windows = list(unit_windows([[end - start for start, end in text_spans] for text_spans in spans], WINDOW_UNITS))
        for window in windows:
            window_views = [views[text] for text, _, _ in window]
            window_spans = [spans[text][first:end] for text, first, end in window]
            sequences = self.featurizer.sequence_features(window_views, window_spans, [ids[text] for text, _, _ in window])
            scores = self._score_sequences(sequences, network)
            if prefer:
                window_matches = [matches[text] for text, _, _ in window]
                scores = add_dictionary_bonus(
                    scores,
                    window_views,
                    window_spans,
                    window_matches,
                    self.cfg["user_dictionary_bonus"],
                    network.labels,
                )
            starts = iter(network.decoder.word_starts(scores))
            for text, first, end in window:
                span_starts[text].extend(islice(starts, end - first))
            if with_probs:
                unit_probs = iter(unit_start_probabilities(network.labels, scores, getattr(network.decoder, "crf", None)))
                for text, first, end in window:
                    span_probs[text].extend(islice(unit_probs, end - first))
            del sequences, scores, starts
            if len(windows) > 1:
                # A long input: the window's scratch memory goes back to the system,
                # else glibc's heap grows window after window (freed_memory.py).
                release_freed_memory()
        words = [
            self._constrain(text, view, decode_words(view, text_spans, text_starts))
            for text, view, text_spans, text_starts in zip(texts, views, spans, span_starts)
        ]
        gap_probs = (
            [character_gap_probabilities(*parts) for parts in zip(texts, views, spans, span_probs)] if with_probs else []
        )
        if len(windows) > 1:
            del views, span_starts, span_probs
            release_freed_memory()
        return words, gap_probs

    def _prefers_by_bonus(self) -> bool:
        """"prefer" mode, user words, and no lexicon features to put them in
        (or ``user_dictionary_bonus_with_lexicon``: the bonus as well)."""
        return (
            self.cfg["user_dictionary_mode"] == "prefer"
            and (not self.featurizer.channels or self.cfg.get("user_dictionary_bonus_with_lexicon", False))
            and len(self._user_dictionary) > 0
        )

    @property
    def inference_precision(self) -> str:
        """The precision predictions run in on this machine: the ``precision``
        setting, with "auto" resolved (models/inference.py); on ONNX Runtime
        the graph's: "float32", or "int8" where its products by weights are
        int8 (``onnx_matmuls``)."""
        if self.inference_backend == ONNXRUNTIME:
            return self._inference_network().precision
        from ..models.inference import resolve_precision

        return resolve_precision(self.cfg["precision"])

    @property
    def inference_backend(self) -> str:
        """What runs the network on the next prediction: "onnxruntime" or
        "torch" (the ``inference_backend`` setting resolved, backends/choice.py).

        RAISES ValueError, ImportError: as chosen_backend, for "onnxruntime"
            without a graph or without ONNX Runtime.
        """
        return chosen_backend(self.cfg["inference_backend"], self._graph is not None, self.name)

    def set_inference_backend(self, backend: str) -> None:
        """Switch the backend ("auto", "onnxruntime" or "torch") until it is saved and loaded again
        (a saved pipeline takes the setting of its config); the next
        prediction builds the network.

        RAISES ValueError: for another name.
        """
        check_backend(backend)
        self.cfg["inference_backend"] = backend
        self._forget_inference()

    @property
    def has_graph(self) -> bool:
        """Whether the pipeline holds an ONNX graph of its network (export_onnx)."""
        return self._graph is not None

    def _inference_network(self):
        """The network that predicts (backends/): the ONNX Runtime InferenceSession of
        the graph or the model's torch inference copy, per inference_backend;
        built once per set of weights and per process (a forked ``nlp.pipe``
        worker builds its own), and safe for concurrent threads."""
        with _NETWORK_BUILD_LOCK:
            network = self._network.get()
            if network is None:
                if self.inference_backend == ONNXRUNTIME:
                    from ..backends.onnx_network import OnnxNetwork

                    graph = str(self._graph) if isinstance(self._graph, Path) else self._graph
                    network = OnnxNetwork(graph, intra_op_threads(self.cfg["inference_threads"]))
                else:
                    self._require_weights()
                    from ..backends.torch_network import TorchNetwork

                    network = TorchNetwork(self.model, self.cfg["precision"])
                    network.module  # built now, under the lock
                self._network.set(network)
            return network

    def _inference_module(self):
        """The torch inference copy of the model (models/inference.py)."""
        from ..backends.torch_network import TorchNetwork

        self._require_weights()
        network = self._inference_network()
        return network.module if isinstance(network, TorchNetwork) else TorchNetwork(self.model, self.cfg["precision"]).module

    def _forget_inference(self) -> None:
        """The weights or the backend changed: the next prediction builds a new network."""
        self._network.clear()

    def _weights_changed(self) -> None:
        """The weights changed: the graph of the old ones goes, and the network is rebuilt."""
        self._graph = None
        self._forget_inference()

    def export_onnx(self) -> None:
        """Export the network, with the current weights, as an ONNX graph that
        the pipeline keeps (saved as gd_segmenter/graph.onnx by to_disk, under
        its own key by to_bytes): with inference_backend "auto" or
        "onnxruntime", ONNX Runtime then runs it (backends/onnx_export.py).
        The graph takes sequences up to this max_length. Needs torch and
        onnx; any later weight change (training, add_criterion, loading
        weights) drops the graph.

        The graph is compacted (backends/graph_compaction.py): weights that
        float16 holds exactly are stored in float16; with ``onnx_tables =
        "int8"`` the n-gram tables are int8 rows with a scale each, and the
        torch model takes the same rows, so both backends compute with the
        same weights and the pipeline saves the tables once (in the graph).
        With ``onnx_matmuls = "int8"`` the graph's products by weights are
        int8 (backends/matmul_quantization.py).

        RAISES ValueError: if the component is not initialized;
            ImportError: without torch or the onnx package, naming the extra.
        """
        require_torch("Exporting a segmenter to ONNX")
        from ..backends.graph_compaction import compact_graph, table_weights
        from ..backends.matmul_quantization import int8_matmuls
        from ..backends.onnx_export import export_graph

        self._check_initialized()
        self._require_weights()
        _, _, example = self._featurize(list(EXPORT_EXAMPLES), [None] * len(EXPORT_EXAMPLES))
        from ..models.module_weights import model_table_names, set_table_rows

        int8_tables = model_table_names(self.model) if self.cfg["onnx_tables"] == "int8" else ()
        graph = export_graph(self.model, example, self.cfg["max_length"])
        if self.cfg["onnx_matmuls"] == "int8":
            graph = int8_matmuls(graph)
        graph = compact_graph(graph, int8_tables)
        set_table_rows(self.model, table_weights(graph))
        self._graph = graph
        self._forget_inference()

    def remove_onnx(self) -> None:
        """Drop the pipeline's ONNX graph: predictions run on torch (its
        tables, if it holds any, stay the torch model's)."""
        self._require_weights()
        self._graph = None
        self._forget_inference()

    def _score_sequences(self, sequences: List[numpy.ndarray], network=None) -> List[Floats3d]:
        """Run the network over length-sorted batches of at most ``batch_units`` padded
        units (spaCy's minibatch_by_padded_size): the inference network
        (eval mode, no dropout, no shared mutable state).
        RETURNS per sequence its scores as numpy (one host copy per batch)."""
        if not sequences:
            return []
        network = network or self._inference_network()
        position = {id(seq): i for i, seq in enumerate(sequences)}
        results: List[Optional[Floats3d]] = [None] * len(sequences)
        batches = minibatch_by_padded_size(
            sequences, size=self.cfg["batch_units"], buffer=len(sequences), get_length=padded_length
        )
        for batch in batches:
            for seq, score in zip(batch, network.scores(batch)):
                results[position[id(seq)]] = score
        return results

    def predict(self, docs: Iterable[Doc]) -> List[ScoredText]:
        """RETURNS per Doc its text, int64 (n_words, 2) word character spans
        and float32 gap probabilities (ScoredText, segment_with_probs),
        segmented by each Doc's doc._.cws_criterion where set (multi-criteria
        models)."""
        docs = list(docs)
        texts = [doc_text(doc) for doc in docs]
        words, gap_probs = self.segment_with_probs(texts, [doc._.cws_criterion for doc in docs])
        return [ScoredText.of(*parts) for parts in zip(texts, words, gap_probs)]

    def set_annotations(self, docs: Iterable[Doc], segmented: List[SegmentedText]) -> None:
        """Make each predicted word one token, in place (merge_words.py): each
        Doc keeps its identity, text, user data, cats, span groups (re-anchored
        to the words) and earlier annotations. TrainablePipe's ``__call__`` and
        ``pipe`` run ``predict`` on a batch of Docs and then this, under the
        pipeline's error handler.

        segmented: per Doc its text and word character spans, from ``predict``
            (ScoredText: with its gap probabilities, set as ``doc._.gap_probs``).
        RAISES ValueError: if a word does not start and end on token edges
            (the Doc was not made by the character pretokenizer).
        """
        for doc, scored in zip(docs, segmented):
            merge_words(doc, scored.words, self.name, scored.text)
            if isinstance(scored, ScoredText):
                set_gap_probs(doc, scored.gap_probs, scored.text)
            forget_text(doc)

    # -- training -------------------------------------------------------------------

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Learn from a batch of examples (TrainablePipe.update).

        drop: the dropout rate of this update (``[training] dropout`` in
            ``spacy train``): every dropout of the torch module but attention
            dropout (models/dropout.py); prediction never drops.
        RETURNS: ``losses`` with this component's loss added.
        RAISES ValueError: if the component is not initialized, or see get_loss.
        """
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, "Segmenter.update")
        if not any(len(eg.predicted) for eg in examples):
            return losses
        self._check_initialized()
        self._require_weights()
        set_dropout_rate(self.model, drop)
        views, spans, sequences = self._featurize_examples(examples)
        scores, backprop = self.model.begin_update(sequences)
        loss, d_scores = self._loss(examples, views, spans, scores)
        backprop(d_scores)
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def update_partial(
        self,
        texts: Sequence[str],
        char_labels: Sequence[numpy.ndarray],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Learn from partially labelled texts: only the labelled gaps count in
        the loss (partial_labels.py; Liu et al. 2014). Gap models only.

        texts: raw texts (the default criterion). char_labels: per text
            (max(len(text) - 1, 0),) per gap between characters: 1 boundary,
            0 none, a probability between them for a soft target (a
            teacher's), -1 unknown (masked out of the loss).
        sgd: the optimizer; None: the gradients stay on the model (for a
            penalty added before finish_update).
        RETURNS: ``losses`` with this component's loss added.
        RAISES ValueError: if the component is not initialized, its model
            predicts B/M/E/S tags, or a labels array has the wrong length.
        """
        from .partial_labels import masked_softmax_cross_entropy, unit_gap_labels

        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        self._check_initialized()
        if self.model.attrs.get("labels", "gaps") != "gaps":
            raise ValueError(f"'{self.name}' tags B/M/E/S: learning from partial gap labels needs a gap model (GD-Transformer)")
        texts = list(texts)
        for text, labels in zip(texts, char_labels):
            if len(labels) != max(len(text) - 1, 0):
                raise ValueError(f"A text of {len(text)} characters needs {max(len(text) - 1, 0)} gap labels, got {len(labels)}")
        self._require_weights()
        set_dropout_rate(self.model, drop)
        views, spans, sequences = self._featurize(texts, [None] * len(texts))
        if not sequences:
            return losses
        gold = [pair for view, text_spans, labels in zip(views, spans, char_labels) for pair in unit_gap_labels(view, text_spans, labels)]
        scores, backprop = self.model.begin_update(sequences)
        loss, d_scores = masked_softmax_cross_entropy(self.model.ops, scores, [g[0] for g in gold], [g[1] for g in gold])
        if numpy.isnan(loss):
            raise ValueError(Errors.E910.format(name=self.name))
        backprop(d_scores)
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the weights (TrainablePipe.finish_update); predictions then use
        them (on torch: an exported graph of the old weights is dropped)."""
        super().finish_update(sgd)
        self._weights_changed()

    @contextmanager
    def use_params(self, params: dict):
        """Predict with the given parameters (e.g. the optimizer's averages) in
        this block, on torch (an exported graph has other weights: it is set
        aside for the block)."""
        self._require_weights()
        graph, self._graph = self._graph, None
        with self.model.use_params(params):
            self._forget_inference()
            try:
                yield
            finally:
                self._graph = graph
                self._forget_inference()

    def get_loss(self, examples: Iterable[Example], scores: List[Floats3d]) -> Tuple[float, List[Floats3d]]:
        """The model's loss (label_schemes): for gaps, softmax cross-entropy per
        head (final and, with Highway-O, early), each a mean over all gaps of the
        batch, summed 1:1 as in the paper; for B/M/E/S tags, the CRF negative
        log-likelihood or softmax cross-entropy, a mean over characters.

        scores: per model sequence, as from the model: (H, n + 1, 2) gap logits
            or (1, n, 4) tag scores.
        RETURNS: (loss, d_scores of the same shapes).
        RAISES ValueError: if a reference text differs from its predicted text, or the loss is NaN.
        """
        validate_examples(examples, "Segmenter.get_loss")
        self._require_weights()
        examples = list(examples)
        views, spans, _ = self._featurize_examples(examples)
        return self._loss(examples, views, spans, scores)

    def _featurize_examples(self, examples: Sequence[Example]):
        """_featurize for training: each text's criterion is its reference Doc's
        corpus, and its jackknife fold a hash of its text."""
        texts = [eg.predicted.text for eg in examples]
        n_folds = self.cfg["jackknife_folds"]
        folds = [text_fold(text, n_folds) for text in texts] if n_folds else None
        return self._featurize(texts, [eg.reference._.cws_criterion for eg in examples], folds, training=True)

    def _loss(
        self,
        examples: Sequence[Example],
        views: List[CharacterView],
        spans: List[List[Tuple[int, int]]],
        scores: List[Floats3d],
    ) -> Tuple[float, List[Floats3d]]:
        """get_loss for texts already featurized (views and sequence spans per example)."""
        from .label_schemes import label_scheme

        scheme = label_scheme(self.model)
        labels: List[numpy.ndarray] = []
        for eg, view, text_spans in zip(examples, views, spans):
            if eg.reference.text != eg.predicted.text:
                raise ValueError(
                    f"'{self.name}' needs the reference and predicted texts to be identical; "
                    f"got '{eg.reference.text[:50]}' and '{eg.predicted.text[:50]}'"
                )
            starts = unit_starts_word(view, (token.idx for token in eg.reference if not token.is_space))
            labels.extend(scheme.gold(starts, text_spans))
        loss, d_scores = scheme.loss(self.model, scores, labels)
        if numpy.isnan(loss):
            raise ValueError(Errors.E910.format(name=self.name))
        return loss, d_scores

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        training_lexicon: bool = False,
        lexicons: Sequence[str] = (),
        user_dictionary: Optional[str] = None,
        ngram_vectors: Optional[str] = None,
        training_word_tagger: Optional[str] = None,
    ) -> None:
        """Collect the symbol vocabulary (every training symbol, no minimum count,
        as in the paper), with bigram_min_count > 0 the bigram vocabulary, and
        with multi_criteria the criteria, from all training examples, and build
        the model.

        training_lexicon: give the model the training words (the non-space
            tokens of the reference Docs) as a lexicon channel "training" (the closed condition), jackknifed by
            ``jackknife_folds``.
        lexicons: more lexicon channels, each "jieba" (jieba's bundled
            dict.txt) or the path of a user dictionary ("word [freq] [POS]" a
            line); these are the same in training and at inference.
        user_dictionary: a user dictionary file (same format) whose words
            ``add_words`` adds after training starts (see user_dictionary_mode).
        ngram_vectors: a folder written by ``python -m spacy_cws ngram-vectors``:
            the vocabularies grow by its unigrams and bigrams, and the
            embedding tables start from its vectors (ngram_vectors/).
        training_word_tagger: with word slots and the training lexicon, tag
            every training word with this tagger ("jieba": jieba.posseg;
            lexicon/word_tagger.py); its tags win over the other channels'.
            None: a training word has the tag of the first other channel
            that holds it, else none (class X).
        Set these in [initialize.components.NAME]; the words are saved with the pipeline.

        RAISES ValueError: if there are no characters, the model's bigram_width
            and bigram_min_count disagree (one is 0, the other not), a
            multi-criteria training Doc has no criterion and there is no
            default, the n-gram vectors' normalisation or widths differ
            from the model's, or training_word_tagger is unknown or set
            without word slots and the training lexicon;
            FileNotFoundError: for a missing vectors folder;
            ImportError: without torch, naming the train extra.
        """
        validate_get_examples(get_examples, "Segmenter.initialize")
        require_torch("Initializing a segmenter for training")
        from ..models.wrapped_module import torch_module
        from ..ngram_vectors import NgramVectors
        from ..ngram_vectors.model_initialization import check_normalisation, copy_into_model, extend_vocabularies

        self._pending_weights = None  # new weights: those of a loaded pipeline are not wanted
        min_count = self.cfg["bigram_min_count"]
        bigram_width = self.model.attrs.get("settings", {}).get("bigram_width", 0)
        if bool(min_count) != bool(bigram_width):
            raise ValueError(
                f"'{self.name}' has bigram_min_count = {min_count} but its model has bigram_width = "
                f"{bigram_width}: set both to 0 (unigrams only) or both above 0"
            )
        texts_symbols = [self.normaliser(eg.reference.text).symbols for eg in get_examples()]
        counts = Counter(chain.from_iterable(texts_symbols))
        if not counts:
            raise ValueError(f"'{self.name}' found no characters in its training examples")
        symbols = sorted(counts, key=lambda s: (-counts[s], s))
        bigrams = SymbolIds(symbols).frequent_bigrams(texts_symbols, min_count) if min_count else []
        vectors = NgramVectors.from_disk(ngram_vectors) if ngram_vectors else None
        if vectors is not None:
            check_normalisation(vectors, self.normaliser, self.name)
            symbols, bigrams = extend_vocabularies(symbols, bigrams, vectors, with_bigrams=bool(min_count))
        self._set_vocabularies(symbols, bigrams)
        self._set_lexicons(self._lexicon_channels(get_examples, training_lexicon, lexicons, training_word_tagger))
        self._set_criteria(
            training_criteria((eg.reference._.cws_criterion for eg in get_examples()), self.cfg["criterion"], self.name)
            if self.cfg["multi_criteria"]
            else []
        )
        self._build_model()
        if vectors is not None:
            copied = copy_into_model(torch_module(self.model), self.featurizer.symbol_ids, self.symbols, vectors)
            self.cfg["ngram_vectors"] = {**vectors.meta, "rows": copied}
        if user_dictionary:
            self.add_words(load_lexicon(str(user_dictionary)))
        # Run once on a small sample so shape errors surface now, not mid-training.
        sample = list(islice(get_examples(), 4))
        self.segment_texts([eg.predicted.text for eg in sample], [eg.reference._.cws_criterion for eg in sample])

    def _lexicon_channels(
        self,
        get_examples: Callable[[], Iterable[Example]],
        training_words: bool,
        sources: Sequence[str],
        tagger: Optional[str] = None,
    ) -> List[dict]:
        """The lexicon channels, packed (lexicon/channel_storage.py)."""
        channels = []
        with_tags = bool(self.model.attrs["settings"].get("word_slots", 0))
        if tagger and not (with_tags and training_words):
            raise ValueError(
                f"'{self.name}' has training_word_tagger = '{tagger}', which tags the training lexicon for the word "
                "slots: set training_lexicon = true and the model's word_slots > 0, or training_word_tagger = null"
            )
        if training_words:
            references = (eg.reference for eg in get_examples())
            folds = training_word_folds(references, self.cfg["jackknife_folds"])
            # The word slots' replacement by POS needs each word's count (word_slots.py).
            counts = tags = None
            if with_tags:
                words = training_lexicon(eg.reference for eg in get_examples())
                counts = {word: entry.frequency for word, entry in words.items()}
                tags = word_tags(words, tagger) if tagger else None
            channels.append(pack_channel("training", folds, tags, counts))
        for source in sources:
            lexicon = load_lexicon(str(source))
            tags = {word: entry.pos for word, entry in lexicon.items()} if with_tags else None
            channels.append(pack_channel(str(source), dict.fromkeys(lexicon, EVERY_FOLD), tags))
        return channels

    def _build_model(self) -> None:
        self.model.set_dim("nL", self.featurizer.n_lexicon_bits, force=True)
        self.model.set_dim("nV", self.featurizer.symbol_ids.n_unigrams, force=True)
        self.model.set_dim("nB", self.featurizer.symbol_ids.n_bigrams, force=True)
        self.model.set_dim("nC", len(self.criteria), force=True)
        self.model.initialize()
        self._weights_changed()
        self._apply_freezing()

    def _apply_freezing(self) -> None:
        if self.cfg["train_criteria_only"]:
            from ..models.criterion_transfer import freeze_all_but_criteria

            freeze_all_but_criteria(self.model)

    def add_criterion(self, name: str) -> None:
        """Add a new criterion to a trained multi-criteria segmenter (Qiu et al.
        2020, Figure 5): one more criterion embedding, the mean of the others
        until trained. Train it alone with ``train_criteria_only`` (the
        ``add-criterion`` CLI sets that in the saved config).

        RAISES ValueError: if the segmenter is not multi-criteria or already has the criterion.
        """
        self._check_initialized()
        if not self.criteria:
            raise ValueError(
                f"'{self.name}' has no criteria: only a multi-criteria segmenter (trained with "
                "multi_criteria = true) can learn a new one"
            )
        if name in self.criteria:
            raise ValueError(f"'{self.name}' already has the criterion '{name}' (criteria: {', '.join(self.criteria)})")
        from ..models.criterion_transfer import add_criterion_row

        self._require_weights()
        add_criterion_row(self.model)
        self._weights_changed()
        # Appended, not sorted in: the existing criteria keep their embedding rows.
        self._set_criteria(self.criteria + [name])

    # -- serialization ----------------------------------------------------------------

    def _load_cfg(self, cfg: dict) -> None:
        """Take the user dictionary and the n-gram vectors' record from a saved
        cfg; the settings stay those of the pipeline's config (so a config
        override such as a new default criterion takes effect). The learned
        vocabularies, criteria and lexicon channels are the featurizer's
        (_load_featurizer); a pipeline saved before they had their own key
        keeps them here, and they load from here."""
        self._user_dictionary = UserDictionary(cfg.get("user_words", []))
        self.cfg["user_words"] = self._user_dictionary.words
        self.cfg["user_tags"] = dict(cfg.get("user_tags", {}))
        self.cfg["ngram_vectors"] = cfg.get("ngram_vectors")
        if any(key in cfg for key in ("symbols", "bigrams", "criteria")):  # the earlier format
            self._set_criteria(cfg.get("criteria", []))
            self._set_vocabularies(cfg.get("symbols", []), cfg.get("bigrams", []))
            self._set_lexicons(list(cfg.get("lexicons", [])))
        elif self.featurizer.channels and self.cfg["user_dictionary_mode"] == "prefer":  # its words join the matcher
            self._set_lexicons(self.featurizer.channels)

    def _load_featurizer(self, data: Optional[Union[bytes, Path]]) -> None:
        """Take the featurizer's saved data, bytes or a file (None: saved in the cfg, or excluded: kept)."""
        if data is None:
            return
        saved = featurizer_data(data.read_bytes() if isinstance(data, Path) else data)
        self._set_criteria(saved["criteria"])
        self._set_vocabularies(list(saved["symbols"]), saved["bigrams"])
        self._set_lexicons(saved["channels"], saved.get("matcher"))

    def _load_model_msg(self, msg: dict) -> None:
        from ..models.module_weights import load_model_message, weights_follow

        self._pending_weights = None
        tables = None
        if self._graph is not None:
            from ..backends.graph_compaction import table_weights

            tables = partial(table_weights, self._graph_bytes())  # the rows of tables saved in the graph only
        if not self.model.layers:
            # Built with no initial weights: the saved ones become its weights
            # (models/module_weights.py), so they are never held twice.
            with weights_follow():
                self._build_model()
        try:
            load_model_message(self.model, msg, tables)
        except Exception as err:  # shape or key errors from thinc/torch
            raise ValueError(
                f"'{self.name}' cannot load its model weights: the file is corrupt or was "
                f"saved with another model configuration ({type(err).__name__}: {err})"
            ) from err
        self._weights_changed()  # the callers keep a graph saved with these weights
        self._apply_freezing()
        release_freed_memory()  # the weights' bytes and float16 copies (freed_memory.py)

    def _load_graph(self, graph: Optional[Union[bytes, Path]]) -> None:
        """Take a saved ONNX graph of the network: its bytes or its file (None: the pipeline has none)."""
        self._graph = graph
        self._forget_inference()

    def _optional_parts(self) -> Dict[str, tuple]:
        """The featurizer's learned data (FEATURIZER_KEY), and the ONNX graph
        (GRAPH_KEY) where the pipeline holds one, each under its own key; both
        load before the weights."""
        return {
            FEATURIZER_KEY: (self.featurizer.to_bytes, self._load_featurizer),
            GRAPH_KEY: (self._graph_bytes, self._load_graph),
        }

    def _graph_bytes(self) -> Optional[bytes]:
        """The graph's bytes (read from its file where it was loaded from one), or None.

        RAISES FileNotFoundError: if the folder the pipeline was loaded from no longer holds it.
        """
        return self._graph.read_bytes() if isinstance(self._graph, Path) else self._graph

    def _model_bytes(self) -> bytes:
        """The weights as saved: the pending ones where they were never
        loaded; without the tables the graph holds (models/module_weights.py
        tables_left_out), which load back from it."""
        if isinstance(self._pending_weights, Path):
            return self._pending_weights.read_bytes()
        if self._pending_weights is not None:
            return self._pending_weights
        if self._graph is None:
            return self.model.to_bytes()
        from ..backends.graph_compaction import table_weights
        from ..models.module_weights import tables_left_out

        with tables_left_out(self.model, list(table_weights(self._graph_bytes()))):
            return self.model.to_bytes()

    def _load_model_file(self, path: Path) -> None:
        """Take the saved weights' file: as _load_model_bytes, except that
        weights kept for later stay in the file until needed (a pipeline
        that ONNX Runtime runs never reads them)."""
        if self._defers_weights():
            self._pending_weights = path
            self._forget_inference()
        else:
            self._load_model_bytes(path.read_bytes())

    def _load_model_bytes(self, data: bytes) -> None:
        """Take saved weights (after the graph, if any). With a graph that ONNX
        Runtime will run they are kept as bytes (torch is not imported); else
        they load into the model now.

        RAISES ValueError: for bytes that are not a saved model (now, or on first need).
        """
        if self._defers_weights():
            self._pending_weights = data
            self._forget_inference()
        else:
            graph = self._graph
            self._load_model_msg(model_message(self.model, data))
            self._graph = graph  # loaded with these weights

    def _defers_weights(self) -> bool:
        """Whether saved weights wait until torch needs them: with a graph that ONNX Runtime runs."""
        try:
            return self._graph is not None and self.inference_backend == ONNXRUNTIME
        except (ImportError, ValueError):  # the backend's own error comes on the first prediction
            return False

    def _require_weights(self) -> None:
        """Load pending weights into the torch model (imports torch); the graph stays.

        RAISES ImportError: without torch, naming the train extra;
            FileNotFoundError: if the folder the pipeline was loaded from no
            longer holds its weights.
        """
        require_torch("Training, exporting, or running a segmenter on torch")
        if self._pending_weights is not None:
            graph = self._graph
            self._load_model_msg(model_message(self.model, self._model_bytes()))
            self._graph = graph
