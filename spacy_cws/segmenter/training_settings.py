"""What a segmenter learns with: settings that act in training only.

``Segmenter.initialize`` takes them (``[initialize.components.NAME]``, next to
the lexicons it loads); ``add_criterion`` sets ``train_criteria_only``. They
are kept in the component's cfg and saved with the pipeline, so a pipeline
that goes on training (``spacy train`` with a sourced component, ``adapt``,
a new criterion from ``add-criterion``) trains as it was set up.
"""
from dataclasses import dataclass


@dataclass
class TrainingSettings:
    """A segmenter's training settings.

    bigram_min_count: keep training bigrams seen at least this often as
        features (0 = no bigram vocabulary; needs a model with bigram_width 0).
    multi_criteria: learn one criterion embedding per training corpus
        (doc._.cws_criterion of the training Docs; Qiu et al. 2020).
    jackknife_folds: folds of the training-words lexicon (see
        lexicon/match_features.py): a training sentence sees only the words of
        the other folds; 0 = no jackknifing.
    word_replacement_threshold: the t of Gan & Zhang 2020 (eq. 14): with a model that has
        word slots, a training word is attended as its POS instead of its
        word embedding with probability min(1, sqrt(t / f(w))), f(w) its
        training count (lexicon/word_slots.py); 0 = never.
    train_criteria_only: update only the criterion embeddings, everything
        else frozen (transfer to a new criterion: ``Segmenter.add_criterion``).
    RAISES ValueError: for a value out of range (named in the message);
        TypeError: for an unknown setting.
    """

    bigram_min_count: int = 0
    multi_criteria: bool = False
    jackknife_folds: int = 10
    word_replacement_threshold: float = 5.0
    train_criteria_only: bool = False

    def __post_init__(self):
        if self.jackknife_folds < 0 or self.jackknife_folds > 62:
            raise ValueError(f"gd_segmenter needs 0 <= jackknife_folds <= 62, got {self.jackknife_folds}")
        if self.word_replacement_threshold < 0:
            raise ValueError(
                f"gd_segmenter needs word_replacement_threshold >= 0, got {self.word_replacement_threshold}"
            )
        if self.bigram_min_count < 0:
            raise ValueError(f"gd_segmenter needs bigram_min_count >= 0, got {self.bigram_min_count}")
