"""What a segmenter does at inference: the ``gd_segmenter`` factory's settings.

The factory (component.py, ``make_gd_segmenter``) takes them as keyword
arguments and passes them on as one :class:`SegmenterSettings`; the
``spacy-cws.SegmenterTokenizer.v1`` tokenizer takes the factory's arguments.
What acts only in training is a :class:`~.training_settings.TrainingSettings`
(``[initialize.components.NAME]``), what acts only at export an argument of
``Segmenter.export_onnx`` (moved_settings.py lists where each earlier setting went).
"""
import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import List, Optional

from ..backends.choice import check_backend
from .unbroken_spans import DEFAULT_PATTERNS, upgraded_patterns

USER_DICTIONARY_MODES = ("force", "prefer")


@dataclass
class SegmenterSettings:
    """A segmenter's inference settings (its config block besides ``model`` and ``scorer``).

    max_length: most units in one model sequence; longer texts are cut (at
        clause ends where possible) and reassembled.
    batch_units: most padded units in one inference batch (a few thousand
        keep a batch's activations in the CPU's L2 cache).
    inference_backend: what runs the network at inference (backends/choice.py):
        "torch" (the model's inference copy), "onnxruntime" (the pipeline's
        exported ONNX graph, see ``Segmenter.export_onnx``) or "auto" (the
        graph where the pipeline holds one and ONNX Runtime is installed,
        else torch). Training always runs torch.
    inference_threads: intra-op threads of the ONNX Runtime InferenceSession (0: its
        default, one per physical core, and 1 in a forked n_process worker);
        the role torch.set_num_threads plays for the torch backend.
    fold_width, collapse_runs, opencc: the model's view of the text (see Normaliser).
    criterion: the default criterion at inference (a Doc's own
        doc._.cws_criterion wins), and of training Docs that name none.
    user_dictionary_mode: how user dictionary words (``add_words``) act:
        "force" (each occurrence is one word) or "prefer" (they join the
        model's last lexicon channel; a model without a lexicon gets a soft
        bonus in decoding instead, see dictionary_bonus.py).
    user_dictionary_bonus: the "prefer" bonus of a model without a lexicon,
        in logit units (nats) per decision.
    user_dictionary_bonus_with_lexicon: in "prefer" mode, give a model with
        a lexicon the decoding bonus too, besides the lexicon features
        (``spacy_cws adapt`` sets it for its mined words; what it does on
        ZX: docs/experiments/adaptation.md).
    user_dictionary_join_unknown_pieces: in "prefer" mode with the decoding
        bonus and a lexicon, keep a user word whole where the model cuts it
        into a piece of two or more characters that no lexicon channel
        knows, as 田不|易 (the model cutting inside a name; unknown_pieces.py).
    unbroken_patterns: regular expressions whose matches are never cut inside
        (default: URLs, e-mail addresses, "@" mentions, numbers with
        separators and units, times and fractions), matched in the text read
        with full-width letters, digits and the signs ＠．＿％＋－／ as ASCII
        (so an ASCII pattern finds full-width forms too); grapheme clusters and
        runs of letters are never cut either, whatever the patterns. The
        defaults of spacy-cws 0.3 and earlier, which the shipped pipelines'
        configs hold, are read as today's, with a DeprecationWarning
        (unbroken_spans.upgraded_patterns).
    RAISES ValueError: for a value out of range (named in the message);
        TypeError: for an unknown setting.
    """

    max_length: int = 256
    batch_units: int = 2048
    inference_backend: str = "auto"
    inference_threads: int = 0
    fold_width: bool = True
    collapse_runs: bool = True
    opencc: Optional[str] = None
    criterion: Optional[str] = None
    user_dictionary_mode: str = "force"
    user_dictionary_bonus: float = 2.0
    user_dictionary_bonus_with_lexicon: bool = False
    user_dictionary_join_unknown_pieces: bool = True
    unbroken_patterns: List[str] = field(default_factory=lambda: list(DEFAULT_PATTERNS))

    def __post_init__(self):
        upgraded = upgraded_patterns(self.unbroken_patterns)
        if upgraded != list(self.unbroken_patterns):
            warnings.warn(
                "gd_segmenter's unbroken_patterns hold patterns of spacy-cws 0.3 and earlier (their e-mail "
                "pattern takes quadratic time on a long run with no '@'), read as today's: set unbroken_patterns "
                "to today's (spacy_cws.segmenter.unbroken_spans.DEFAULT_PATTERNS) or leave it out of the config; "
                "python -m spacy_cws configure PIPELINE OUTPUT saves a copy with today's",
                DeprecationWarning,
                stacklevel=3,
            )
        self.unbroken_patterns = upgraded
        if self.user_dictionary_mode not in USER_DICTIONARY_MODES:
            raise ValueError(
                f"gd_segmenter needs user_dictionary_mode in {USER_DICTIONARY_MODES}, got '{self.user_dictionary_mode}'"
            )
        if self.max_length < 1 or self.batch_units < self.max_length + 2:
            raise ValueError(
                f"gd_segmenter needs max_length >= 1 and batch_units >= max_length + 2, "
                f"got max_length={self.max_length}, batch_units={self.batch_units}"
            )
        check_backend(self.inference_backend)
        if self.inference_threads < 0:
            raise ValueError(f"gd_segmenter needs inference_threads >= 0, got {self.inference_threads}")


def default_settings() -> dict:
    """The settings' defaults by name, as the factory's default config lists them."""
    return dataclasses.asdict(SegmenterSettings())
