"""The trainable ``gd_segmenter`` component: merges characters into words.

The pipeline's tokenizer (``spacy-cws.CharPretokenizer.v1``) makes each
character a token; this component scores every gap between units with the
GD-Transformer (Duan & Zhao 2020), or tags every unit B/M/E/S with a BMES
tagger (SAN-CRF, Gan & Zhang 2020; the multi-criteria Transformer, Qiu et al. 2020), as its
model's ``attrs["labels"]`` says, and merges each Doc's characters into
its predicted words in place (merge_words.py). Training labels come from the reference
Doc's word starts (``token.idx``), so ``spacy train`` needs only DocBins of
gold-segmented sentences. The component owns its featurizer, its user
words (user_words.py) and its network in each form (network.py).
"""
import dataclasses
from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Model, Optimizer
from thinc.types import Floats3d

from ..backends.choice import check_backend, require_torch
from ..backends.export_options import DEFAULT_MATMULS, DEFAULT_TABLES
from ..features.character_view import Normaliser
from ..lexicon import load_lexicon
from ..nets.precisions import check_precision
from .criteria import check_new_criterion
from .doc_text import doc_text, forget_text
from .featurizer import Featurizer
from .frequent_bigrams import keep_frequent_bigrams
from .gap_probs_extension import ScoredText, set_gap_probs
from .initialization import initial_data
from .merge_words import SegmentedText, merge_words
from .moved_settings import check_training_conflicts
from .network import SegmenterNetwork
from .serialization import SegmenterSerialization
from .settings import SegmenterSettings
from .training_settings import TrainingSettings
from .training_steps import SegmenterTraining
from .unbroken_spans import PatternSpans
from .user_words import UserWords
from .windowed_inference import segment_in_windows

Losses = Optional[Dict[str, float]]  # per component its summed loss (None: a new dict)


class Segmenter(SegmenterSerialization, TrainablePipe):
    """Chinese word segmentation over a character pretokenized Doc, by gap
    scoring or B/M/E/S tagging (decoding/label_schemes.py)."""

    def __init__(
        self, vocab: Vocab, model: Model, name: str = "gd_segmenter", *, scorer: Optional[Callable] = None,
        settings: Optional[SegmenterSettings] = None, configured_training: Optional[Dict[str, Any]] = None,
    ):
        """settings: the inference settings (None: their defaults).
        configured_training: TrainingSettings that the component's config block
            sets (moved_settings.py): they win over those a saved pipeline holds;
            the others are their defaults until ``initialize`` sets them or a
            saved pipeline loads them.
        RAISES ValueError, TypeError: as TrainingSettings."""
        settings = settings or SegmenterSettings()
        self._configured_training = dict(configured_training or {})
        training_settings = TrainingSettings(**self._configured_training)
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        learned = {"user_words": [], "user_tags": {}, "lexicons": [], "ngram_vectors": None}
        self.cfg = {**dataclasses.asdict(settings), **dataclasses.asdict(training_settings), **learned}
        settings_of_model = model.attrs.get("settings", {})
        self.featurizer = Featurizer(
            Normaliser(fold_width=settings.fold_width, collapse_runs=settings.collapse_runs, opencc=settings.opencc),
            settings.max_length,
            word_slots=settings_of_model.get("word_slots", 0),
            trigrams=bool(settings_of_model.get("trigram_width", 0)),
            word_replacement_threshold=training_settings.word_replacement_threshold,
        )
        # These read the settings from self.cfg (the same dict) when they use them.
        self.user_words = UserWords(self.featurizer, self.cfg)
        self.network = SegmenterNetwork(model, self.featurizer, self.cfg)
        self.training = SegmenterTraining(self.featurizer, self.network, self.cfg)
        self._pattern_spans = PatternSpans(settings.unbroken_patterns)

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

    @property
    def criteria(self) -> List[str]:
        """The criteria of a multi-criteria model (its training corpora); [] otherwise."""
        return self.featurizer.criteria

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

    # -- user dictionary (user_words.py) ----------------------------------------------

    @property
    def words(self) -> List[str]:
        """The user dictionary's words, in the order they were added."""
        return self.user_words.dictionary.words

    def set_user_dictionary_mode(self, mode: str) -> None:
        """Switch the user dictionary between "force" and "prefer" until it is saved and loaded again
        (a saved pipeline takes the mode of its config). RAISES ValueError: for another mode."""
        self.user_words.set_mode(mode)

    def add_words(self, words: Iterable[str]) -> None:
        """Add words, or a Lexicon's words with their POS tags, to the user dictionary, saved with
        the pipeline (how each mode applies them: UserWords.add).
        RAISES ValueError: for an empty word; TypeError: for a word that is not a str."""
        self.user_words.add(words)

    def remove_words(self, words: Iterable[str]) -> None:
        """Remove words (and their POS tags) from the user dictionary (absent words are ignored)."""
        self.user_words.remove(words)

    # -- inference ------------------------------------------------------------------

    def segment_texts(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]] = None
    ) -> List[numpy.ndarray]:
        """Segment raw texts, a window of units at a time (windowed_inference.py).
        RETURNS per text int64 (n_words, 2) of [start, end) character offsets
        of its words; whitespace is in no word.
        criteria: per text the criterion to segment by (None: the default);
            used by multi-criteria models only.
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        return self._segment(texts, criteria, with_probs=False)[0]

    def segment_with_probs(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]] = None
    ) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
        """Segment raw texts and give the probability of a boundary at every
        gap between characters, in one pass.

        RETURNS (words, gap_probs): per text the int64 (n_words, 2) word
            offsets of ``segment_texts``, and float32 (max(len(text) - 1, 0),)
            where element i is the probability of a word boundary between
            text[i] and text[i + 1] (windowed_inference.segment_in_windows).
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        return self._segment(texts, criteria, with_probs=True)

    def _segment(
        self, texts: Sequence[str], criteria: Optional[Sequence[Optional[str]]], with_probs: bool
    ) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
        """segment_texts, and with_probs the gap probabilities (else [])."""
        self.network.check_initialized(self.name)
        texts = list(texts)
        ids = self.featurizer.criterion_ids(criteria or [None] * len(texts), self.cfg["criterion"], self.name)
        network = self.network.inference_network(self.name)
        return segment_in_windows(
            texts, ids, self.featurizer, network, self.user_words, self._pattern_spans,
            self.cfg["batch_units"], self.cfg["user_dictionary_bonus"], with_probs,
        )

    @property
    def inference_precision(self) -> str:
        """The precision predictions run in on this machine (SegmenterNetwork.precision)."""
        return self.network.precision(self.name)

    @property
    def inference_backend(self) -> str:
        """What runs the network on the next prediction: "onnxruntime" or "torch" (SegmenterNetwork.backend).
        RAISES ValueError, ImportError: for "onnxruntime" without a graph or without ONNX Runtime."""
        return self.network.backend(self.name)

    def set_inference_backend(self, backend: str) -> None:
        """Switch the backend ("auto", "onnxruntime" or "torch") until it is saved and loaded again
        (a saved pipeline takes the setting of its config). RAISES ValueError: for another name."""
        check_backend(backend)
        self.cfg["inference_backend"] = backend
        self.network.forget_inference()

    def set_inference_precision(self, precision: str) -> None:
        """Run the torch inference copy in ``precision`` until the pipeline is
        loaded again (it then runs float32): "float32", "bfloat16" (fast on
        CPUs with AVX512-BF16 or AMX, slow elsewhere) or "auto"
        (bfloat16 on such CPUs); ONNX Runtime runs its graph's precision
        whatever this says (SegmenterNetwork.precision).
        RAISES ValueError: for another name."""
        check_precision(precision)
        self.network.torch_precision = precision
        self.network.forget_inference()

    @property
    def has_graph(self) -> bool:
        """Whether the pipeline holds an ONNX graph of its network (export_onnx)."""
        return self.network.graph is not None

    def export_onnx(
        self, calibration: Optional[Sequence[str]] = None, *, tables: str = DEFAULT_TABLES,
        matmuls: str = DEFAULT_MATMULS,
    ) -> None:
        """Export the network with the current weights as an ONNX graph that the pipeline keeps and
        ONNX Runtime then runs, until the weights change (SegmenterNetwork.export_onnx); the cfg
        records ``tables`` and ``matmuls`` as ``onnx_tables`` and ``onnx_matmuls``.
        tables: how the graph stores the n-gram tables, matmuls: how it computes
            its products by weights (backends/export_options.py).
        calibration: texts whose activations set the ranges of static int8
            products (``matmuls = "int8-static"``; a few hundred sentences).
        RAISES ValueError: if the component is not initialized, for unknown tables
            or matmuls, or for "int8-static" without calibration texts;
            ImportError: without torch or the onnx package, naming the extra."""
        self.network.export_onnx(self.name, calibration, tables, matmuls)

    def keep_frequent_bigrams(self, n_bigrams: int) -> int:
        """Keep the ``n_bigrams`` most frequent bigrams and their table rows; the
        others read UNK's row (frequent_bigrams.py). Any ONNX graph goes.
        RETURNS the bigrams dropped.
        RAISES ValueError: if n_bigrams is below 1, or the component is not
            initialized; ImportError: without torch."""
        return keep_frequent_bigrams(self.network, n_bigrams, self.name)

    def remove_onnx(self) -> None:
        """Drop the pipeline's ONNX graph: predictions run on torch (SegmenterNetwork.remove_onnx)."""
        self.network.remove_onnx(self.name)

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
        to the words) and earlier annotations.
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
        self, examples: Iterable[Example], *, drop: float = 0.0, sgd: Optional[Optimizer] = None, losses: Losses = None
    ) -> Dict[str, float]:
        """Learn from a batch of examples (TrainablePipe.update; SegmenterTraining.example_step).
        drop: the dropout rate of this update (``[training] dropout`` in
            ``spacy train``): every dropout of the torch module but attention
            dropout (nets/dropout.py); prediction never drops.
        RETURNS: ``losses`` with this component's loss added.
        RAISES ValueError: if the component is not initialized, or see get_loss.
        """
        examples = list(examples)
        validate_examples(examples, "Segmenter.update")
        learns = any(len(eg.predicted) for eg in examples)
        return self._add_loss(self.training.example_step(examples, drop, self.name) if learns else None, sgd, losses)

    def update_partial(
        self, texts: Sequence[str], char_labels: Sequence[numpy.ndarray], *, drop: float = 0.0,
        sgd: Optional[Optimizer] = None, losses: Losses = None,
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
            predicts B/M/E/S tags, or a labels array has the wrong length."""
        return self._add_loss(self.training.partial_step(texts, char_labels, drop, self.name), sgd, losses)

    def _add_loss(self, loss: Optional[float], sgd: Optional[Optimizer], losses: Losses) -> Dict[str, float]:
        """``losses`` (a new dict for None) with this component's entry, to which a step's ``loss``
        (None: no step) is added once ``sgd`` (if given) updated the weights."""
        losses = {} if losses is None else losses
        losses.setdefault(self.name, 0.0)
        if loss is not None:
            if sgd not in (None, False):
                self.finish_update(sgd)
            losses[self.name] += loss
        return losses

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the weights (TrainablePipe.finish_update); predictions then use
        them (on torch: an exported graph of the old weights is dropped)."""
        super().finish_update(sgd)
        self.network.weights_changed()

    def use_params(self, params: dict):
        """A context manager: predict with the given parameters (e.g. the optimizer's
        averages) in its block, on torch (an exported graph of other weights is set aside)."""
        return self.network.use_params(params, self.name)

    def get_loss(self, examples: Iterable[Example], scores: List[Floats3d]) -> Tuple[float, List[Floats3d]]:
        """The model's loss for its label scheme (training_steps.gold_loss).
        scores: per model sequence, as from the model: (H, n + 1, 2) gap logits
            or (1, n, 4) tag scores.
        RETURNS: (loss, d_scores of the same shapes).
        RAISES ValueError: if a reference text differs from its predicted text, or the loss is NaN.
        """
        validate_examples(examples, "Segmenter.get_loss")
        return self.training.example_loss(list(examples), scores, self.name)

    def initialize(
        self, get_examples: Callable[[], Iterable[Example]], *, nlp: Optional[Language] = None,
        training_lexicon: bool = False, lexicons: Sequence[str] = (), user_dictionary: Optional[str] = None,
        ngram_vectors: Optional[str] = None, training_word_tagger: Optional[str] = None,
        bigram_min_count: Optional[int] = None, multi_criteria: Optional[bool] = None,
        jackknife_folds: Optional[int] = None, word_replacement_threshold: Optional[float] = None,
    ) -> None:
        """Learn the vocabularies, lexicon channels and (multi_criteria) criteria
        of all training examples (initialization.initial_data documents the
        arguments), and build the model. The arguments are set in
        [initialize.components.NAME] (docs/reference/settings.md); what they
        load and the training settings are saved with the pipeline.
        user_dictionary: a user dictionary file whose words ``add_words`` adds after training starts.
        bigram_min_count, multi_criteria, jackknife_folds, word_replacement_threshold:
            TrainingSettings (training_settings.py); None: as the component has it.

        RAISES ValueError: for a training setting out of range or also set to
            another value in [components.NAME]; as initial_data, for no
            characters, bigram settings that disagree, a training Doc without a
            criterion, n-gram vectors of another normalisation or width, or a
            misplaced training_word_tagger;
            FileNotFoundError: for a missing vectors folder;
            ImportError: without torch, naming the train extra.
        """
        validate_get_examples(get_examples, "Segmenter.initialize")
        given = {
            "bigram_min_count": bigram_min_count, "multi_criteria": multi_criteria,
            "jackknife_folds": jackknife_folds, "word_replacement_threshold": word_replacement_threshold,
        }
        self._set_training(check_training_conflicts(given, self._configured_training, self.name))
        require_torch("Initializing a segmenter for training")
        from ..nets.wrapped_module import torch_module
        from ..ngram_vectors.model_initialization import copy_into_model

        self.network.pending_weights = None  # new weights: those of a loaded pipeline are not wanted
        data = initial_data(
            get_examples, self.normaliser, self.cfg, self.model.attrs.get("settings", {}), self.name,
            training_lexicon, lexicons, ngram_vectors, training_word_tagger,
        )
        self._set_learned(data.criteria, data.symbols, data.bigrams, data.channels)
        self.network.build()
        if data.vectors is not None:
            copied = copy_into_model(torch_module(self.model), self.featurizer.symbol_ids, self.symbols, data.vectors)
            self.cfg["ngram_vectors"] = {**data.vectors.meta, "rows": copied}
        if user_dictionary:
            self.add_words(load_lexicon(str(user_dictionary)))
        # Run once on a small sample so shape errors surface now, not mid-training.
        sample = list(islice(get_examples(), 4))
        self.segment_texts([eg.predicted.text for eg in sample], [eg.reference._.cws_criterion for eg in sample])

    def add_criterion(self, name: str, *, train_criteria_only: bool = False) -> None:
        """Add a new criterion to a trained multi-criteria segmenter (Qiu et al.
        2020, Figure 5): one more criterion embedding, the mean of the others
        until trained. train_criteria_only: from now on train the criterion
        embeddings alone, everything else frozen (a setting saved with the
        pipeline; the ``add-criterion`` CLI sets it).

        RAISES ValueError: if the segmenter is not multi-criteria or already has the criterion.
        """
        self.network.check_initialized(self.name)
        check_new_criterion(name, self.criteria, self.name)
        from ..nets.criterion_transfer import add_criterion_row

        self.network.require_weights(self.name)
        add_criterion_row(self.model)
        self.network.weights_changed()
        # Appended, not sorted in: the existing criteria keep their embedding rows.
        self.featurizer.criteria = self.criteria + [name]
        if train_criteria_only:
            self._configured_training.pop("train_criteria_only", None)  # this call sets it now
            self._set_training({"train_criteria_only": True})
            self.network.apply_freezing()
