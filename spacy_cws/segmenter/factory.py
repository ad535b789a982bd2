"""The ``gd_segmenter`` factory: a component's config block to a Segmenter (component.py).

Its keyword arguments are what acts at inference (SegmenterSettings,
settings.py), the model and the scorer, as spaCy's own factories take
theirs; what acts only in training is an argument of ``Segmenter.initialize``
(``[initialize.components.NAME]``), what acts only at export one of
``Segmenter.export_onnx``. The settings that moved there are still taken
from earlier configs (moved_settings.py). spaCy finds the factory through
the ``spacy_factories`` entry point ``factory:make_gd_segmenter`` (setup.cfg),
importing this module when a config first names ``gd_segmenter``.
"""
from typing import Callable, List, Optional

from spacy.language import Language
from thinc.api import Model

from .component import Segmenter
from .default_model import DEFAULT_MODEL
from .moved_settings import TRAINING_KEYS, read_moved_settings
from .settings import SegmenterSettings, default_settings

@Language.factory(
    "gd_segmenter",
    assigns=["token.text"],
    default_config={
        "model": DEFAULT_MODEL, **default_settings(), "scorer": {"@scorers": "spacy-cws.segmentation_scorer.v1"}
    },
    default_score_weights={"token_f": 1.0, "token_p": 0.0, "token_r": 0.0, "token_acc": None},
    retokenizes=True,
)
def make_gd_segmenter(
    nlp: Language,
    name: str,
    *,
    model: Model,
    max_length: int,
    batch_units: int,
    inference_backend: str,
    inference_threads: int,
    fold_width: bool,
    collapse_runs: bool,
    opencc: Optional[str],
    criterion: Optional[str],
    user_dictionary_mode: str,
    user_dictionary_bonus: float,
    user_dictionary_bonus_with_lexicon: bool,
    user_dictionary_join_unknown_pieces: bool,
    unbroken_patterns: List[str],
    scorer: Optional[Callable],
    # Moved elsewhere (moved_settings.py): unset, or read from an earlier config with a DeprecationWarning.
    precision: Optional[str] = None,
    onnx_tables: Optional[str] = None,
    onnx_matmuls: Optional[str] = None,
    bigram_min_count: Optional[int] = None,
    multi_criteria: Optional[bool] = None,
    train_criteria_only: Optional[bool] = None,
    jackknife_folds: Optional[int] = None,
    word_replacement_threshold: Optional[float] = None,
) -> "Segmenter":
    """Create a ``gd_segmenter``. ``max_length`` to ``unbroken_patterns``:
    its inference settings (SegmenterSettings, settings.py; their defaults
    are the factory's default config). What acts only in training is set
    in ``[initialize.components.NAME]`` (``Segmenter.initialize``).
    precision to word_replacement_threshold: settings of earlier configs,
        read with a DeprecationWarning naming where they belong now.
    RAISES ValueError: for a setting out of range (named in the message).
    """
    settings = SegmenterSettings(
        max_length=max_length, batch_units=batch_units, inference_backend=inference_backend,
        inference_threads=inference_threads, fold_width=fold_width, collapse_runs=collapse_runs, opencc=opencc,
        criterion=criterion, user_dictionary_mode=user_dictionary_mode, user_dictionary_bonus=user_dictionary_bonus,
        user_dictionary_bonus_with_lexicon=user_dictionary_bonus_with_lexicon,
        user_dictionary_join_unknown_pieces=user_dictionary_join_unknown_pieces, unbroken_patterns=unbroken_patterns,
    )
    moved = read_moved_settings(
        {
            "precision": precision, "onnx_tables": onnx_tables, "onnx_matmuls": onnx_matmuls,
            "bigram_min_count": bigram_min_count, "multi_criteria": multi_criteria,
            "train_criteria_only": train_criteria_only, "jackknife_folds": jackknife_folds,
            "word_replacement_threshold": word_replacement_threshold,
        },
        name,
    )
    training = {key: moved[key] for key in TRAINING_KEYS if key in moved}
    segmenter = Segmenter(nlp.vocab, model, name, scorer=scorer, settings=settings, configured_training=training)
    if precision is not None:
        segmenter.set_inference_precision(precision)
    return segmenter
