"""The settings of a segmenter, written once for every place that takes them.

The ``gd_segmenter`` factory, ``Segmenter.__init__`` and the
``spacy-cws.SegmenterTokenizer.v1`` tokenizer all take these keyword settings.
spaCy's config system reads a registered function's parameters from its
signature, so :func:`takes_settings` gives such a function one keyword
parameter per field of :class:`SegmenterSettings`, with its type and default.
"""
import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import Callable, List, Optional, TypeVar

from ..backends.choice import check_backend
from ..nets.precisions import check_precision
from .unbroken_spans import DEFAULT_PATTERNS, upgraded_patterns

USER_DICTIONARY_MODES = ("force", "prefer")
ONNX_TABLES = ("int8", "int4", "float16")
ONNX_MATMULS = ("float32", "int8", "int8-static")
F = TypeVar("F", bound=Callable)


@dataclass
class SegmenterSettings:
    """A segmenter's settings (its config block besides ``model`` and ``scorer``).

    max_length: most units in one model sequence; longer texts are cut (at
        clause ends where possible) and reassembled.
    batch_units: most padded units in one inference batch (a few thousand
        keep a batch's activations in the CPU's L2 cache).
    precision: the dtype of the model's inference copy (nets/inference.py),
        "float32", "bfloat16" (oneDNN's bf16 matmuls: fast on CPUs with
        AVX512-BF16 or AMX, about 20x slower elsewhere) or "auto" (bfloat16
        on such CPUs, else float32; chosen when the copy is built, so a saved
        pipeline adapts to the machine that loads it); training is always float32.
        The ONNX Runtime backend runs its float32 graph whatever this says.
    inference_backend: what runs the network at inference (backends/choice.py):
        "torch" (the model's inference copy), "onnxruntime" (the pipeline's
        exported ONNX graph, see ``Segmenter.export_onnx``) or "auto" (the
        graph where the pipeline holds one and ONNX Runtime is installed,
        else torch). Training always runs torch.
    inference_threads: intra-op threads of the ONNX Runtime InferenceSession (0: its
        default, one per physical core, and 1 in a forked n_process worker);
        the role torch.set_num_threads plays for the torch backend.
    onnx_tables: how ``Segmenter.export_onnx`` stores the n-gram tables in
        the graph: "int8" (a scale per row; CTB6 test F1 within 0.02 of the
        float16 tables, docs/guides/onnx-runtime.md), "int4" (4-bit codes
        with a scale and zero point per block of 32 values: 41 bytes a
        64-wide row against int8's 68) or "float16" (as the shipped
        pipelines saved them).
    onnx_matmuls: how ``Segmenter.export_onnx`` computes the graph's products
        by weights: "float32" (the torch backend's words exactly, whatever
        the batch) or "int8" (ONNX Runtime's dynamic int8: faster, CTB6 test
        F1 within 0.005 of float32's, but an activation's scale is its
        batch's, so a few lines in a hundred get other words in another
        batch; backends/matmul_quantization.py) or "int8-static" (ranges
        measured once on calibration text at export, so the words do not
        depend on the batch; backends/static_quantization.py).
    fold_width, collapse_runs, opencc: the model's view of the text (see Normaliser).
    bigram_min_count: keep training bigrams seen at least this often as
        features (0 = no bigram vocabulary; needs a model with bigram_width 0).
    multi_criteria: learn one criterion embedding per training corpus
        (doc._.cws_criterion of the training Docs; Qiu et al. 2020).
    criterion: the default criterion at inference (a Doc's own
        doc._.cws_criterion wins), and of training Docs that name none.
    train_criteria_only: update only the criterion embeddings, everything
        else frozen (transfer to a new criterion; see add_criterion).
    jackknife_folds: folds of the training-words lexicon (see
        lexicon/match_features.py): a training sentence sees only the words of
        the other folds; 0 = no jackknifing. The lexicons themselves are chosen
        in [initialize.components.NAME] (see ``Segmenter.initialize``).
    word_replacement_threshold: seed 003's t (eq. 14): with a model that has
        word slots, a training word is attended as its POS instead of its
        word embedding with probability min(1, sqrt(t / f(w))), f(w) its
        training count (lexicon/word_slots.py); 0 = never.
    user_dictionary_mode: how user dictionary words (``add_words``) act:
        "force" (each occurrence is one word) or "prefer" (they join the
        model's last lexicon channel; a model without a lexicon gets a soft
        bonus in decoding instead, see dictionary_bonus.py).
    user_dictionary_bonus: the "prefer" bonus of a model without a lexicon,
        in logit units (nats) per decision.
    user_dictionary_bonus_with_lexicon: in "prefer" mode, give a model with
        a lexicon the decoding bonus too, besides the lexicon features
        (``spacy_cws adapt`` sets it for its mined words, with a bonus of
        1.0: on ZX dev it added 0.4 F1 and 2.9 points of OOV recall to
        zh_cws_gd_sm's lexicon features alone; docs/guides/domain-adaptation.md).
    user_dictionary_join_unknown_pieces: in "prefer" mode with the decoding
        bonus and a lexicon, keep a user word whole where the model cuts it
        into a piece of two or more characters that no lexicon channel
        knows, as 田不|易 (the model cutting inside a name; unknown_pieces.py).
    unbroken_patterns: regular expressions whose matches are never cut inside
        (default: URLs, e-mail addresses, "@" mentions, numbers with
        separators and units, times and fractions; the defaults of earlier
        releases are read as today's, see unbroken_spans.py), matched in the
        text read with full-width letters, digits and the signs ＠．＿％＋－／
        as ASCII (so an ASCII pattern finds full-width forms too); grapheme
        clusters and runs of letters are never cut either, whatever the patterns.
    RAISES ValueError: for a value out of range (named in the message);
        TypeError: for an unknown setting.
    """

    max_length: int = 256
    batch_units: int = 2048
    precision: str = "float32"
    inference_backend: str = "auto"
    inference_threads: int = 0
    onnx_tables: str = "int8"
    onnx_matmuls: str = "float32"
    fold_width: bool = True
    collapse_runs: bool = True
    opencc: Optional[str] = None
    bigram_min_count: int = 0
    multi_criteria: bool = False
    criterion: Optional[str] = None
    train_criteria_only: bool = False
    jackknife_folds: int = 10
    word_replacement_threshold: float = 5.0
    user_dictionary_mode: str = "force"
    user_dictionary_bonus: float = 2.0
    user_dictionary_bonus_with_lexicon: bool = False
    user_dictionary_join_unknown_pieces: bool = True
    unbroken_patterns: List[str] = field(default_factory=lambda: list(DEFAULT_PATTERNS))

    def __post_init__(self):
        self.unbroken_patterns = upgraded_patterns(self.unbroken_patterns)
        if self.user_dictionary_mode not in USER_DICTIONARY_MODES:
            raise ValueError(
                f"gd_segmenter needs user_dictionary_mode in {USER_DICTIONARY_MODES}, got '{self.user_dictionary_mode}'"
            )
        if self.jackknife_folds < 0 or self.jackknife_folds > 62:
            raise ValueError(f"gd_segmenter needs 0 <= jackknife_folds <= 62, got {self.jackknife_folds}")
        if self.word_replacement_threshold < 0:
            raise ValueError(f"gd_segmenter needs word_replacement_threshold >= 0, got {self.word_replacement_threshold}")
        if self.bigram_min_count < 0:
            raise ValueError(f"gd_segmenter needs bigram_min_count >= 0, got {self.bigram_min_count}")
        if self.max_length < 1 or self.batch_units < self.max_length + 2:
            raise ValueError(
                f"gd_segmenter needs max_length >= 1 and batch_units >= max_length + 2, "
                f"got max_length={self.max_length}, batch_units={self.batch_units}"
            )
        check_precision(self.precision)
        check_backend(self.inference_backend)
        if self.onnx_tables not in ONNX_TABLES:
            raise ValueError(f"gd_segmenter needs onnx_tables in {ONNX_TABLES}, got '{self.onnx_tables}'")
        if self.onnx_matmuls not in ONNX_MATMULS:
            raise ValueError(f"gd_segmenter needs onnx_matmuls in {ONNX_MATMULS}, got '{self.onnx_matmuls}'")
        if self.inference_threads < 0:
            raise ValueError(f"gd_segmenter needs inference_threads >= 0, got {self.inference_threads}")


def default_settings() -> dict:
    """The settings' defaults by name, as a config block lists them."""
    return dataclasses.asdict(SegmenterSettings())


def takes_settings(func: F) -> F:
    """Give ``func`` (which takes ``**settings``) a signature with one keyword
    parameter per setting, so that spaCy's config system fills and validates
    them as for any registered function."""
    signature = inspect.signature(func)
    params = [p for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    defaults = default_settings()
    hints = {f.name: f.type for f in dataclasses.fields(SegmenterSettings)}
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name], annotation=hints[name])
        for name in defaults
    ]
    func.__signature__ = signature.replace(parameters=params)
    func.__annotations__ = {**func.__annotations__, **hints}
    return func
