"""Several trained segmenting pipelines as one segmenter: their gap probabilities averaged.

Each member segments the same texts (nlp.pipe) and sets doc._.gap_probs;
the ensemble's Doc of a text has the arithmetic mean of those as its
doc._.gap_probs and the mean's decision as its words (gap_decisions.mean_decision:
a boundary where the mean is above 0.5, what every member's constraints
agree on kept). Seeds or sizes of one recipe averaged are a stronger teacher
than any of them (Hinton, Vinyals & Dean 2015), whose probabilities a
student learns as soft targets (``teacher-corpus --soft``).
"""
from typing import Iterable, Iterator, List, Optional, Sequence

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ..segmenter.default_criterion import set_default_criterion
from ..segmenter.doc_from_spans import doc_from_spans
from ..segmenter.gap_probs_extension import ScoredText, set_gap_probs
from ..segmenter.gap_targets_extension import set_gap_targets
from ..segmenter.pipeline_segmenters import segmenter_component, segmenters_of
from ..streaming.segmentation import words_of_doc
from .gap_decisions import mean_decision, soft_targets


class SegmenterEnsemble:
    """Pipelines with a gd_segmenter component, averaged (module docstring).

    pipelines: the loaded pipelines; names: how messages name them (default
        "pipeline 1", ...); criterion: the criterion each multi-criteria member
        segments by where a Doc names none (as ``segment --criterion`` sets it:
        set_default_criterion); members without criteria segment as they are.
    RAISES ValueError: for no pipelines, a pipeline without a gd_segmenter
        component (naming it and its components), or a criterion no member
        knows or a multi-criteria member does not know (naming its known criteria).
    """

    def __init__(
        self, pipelines: Sequence[Language], names: Optional[Sequence[str]] = None, criterion: Optional[str] = None
    ):
        self.pipelines = list(pipelines)
        self.names = list(names) if names is not None else [f"pipeline {i}" for i in range(1, len(pipelines) + 1)]
        if not self.pipelines:
            raise ValueError("An ensemble needs at least one pipeline")
        for nlp, name in zip(self.pipelines, self.names):
            try:
                segmenter_component(nlp)
            except ValueError as err:
                raise ValueError(f"'{name}' cannot be an ensemble member: {err}") from None
        if criterion is not None:
            self._set_criterion(criterion)

    def _set_criterion(self, criterion: str) -> None:
        multi = [(nlp, name) for nlp, name in zip(self.pipelines, self.names) if any(
            segmenter.criteria for segmenter in segmenters_of(nlp)
        )]
        if not multi:
            raise ValueError(
                f"Cannot segment by the criterion '{criterion}': no pipeline of the ensemble "
                f"({', '.join(self.names)}) has a multi-criteria segmenter"
            )
        for nlp, name in multi:
            try:
                set_default_criterion(nlp, criterion)
            except ValueError as err:
                raise ValueError(f"'{name}': {err}") from None

    @property
    def vocab(self):
        """The vocab of the ensemble's Docs: the first pipeline's."""
        return self.pipelines[0].vocab

    def segment(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[ScoredText]:
        """Per text, lazily and in order, its text, the ensemble's words
        (int64 (n_words, 2) [start, end) offsets) and the members' mean gap
        probabilities (float32 (max(len(text) - 1, 0),)), a batch of texts at a time.
        RAISES ValueError: as the members' nlp.pipe raises."""
        for batch in minibatch(texts, size=batch_size):
            member_docs = [list(nlp.pipe(batch, batch_size=batch_size)) for nlp in self.pipelines]
            for text, docs in zip(batch, zip(*member_docs)):
                words, mean = mean_decision(
                    len(text), [words_of_doc(doc).words for doc in docs], [doc._.gap_probs for doc in docs]
                )
                yield ScoredText.of(text, words, mean)

    def pipe(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[Doc]:
        """Per text, lazily and in order, a Doc whose text is the text, whose
        words are the ensemble's and whose doc._.gap_probs the members' mean (``segment``).
        RAISES ValueError: as the members' nlp.pipe raises."""
        for scored in self.segment(texts, batch_size):
            doc = doc_from_spans(self.vocab, scored.text, scored.words)
            set_gap_probs(doc, scored.gap_probs, scored.text)
            yield doc


def pipeline_names(joined: str) -> List[str]:
    """The pipeline names (or paths) of ``joined``, separated by commas ("zh_cws_gd,zh_cws_gd_sm").
    RAISES ValueError: for an empty name."""
    names = [name.strip() for name in joined.split(",")]
    if not all(names):
        raise ValueError(f"'{joined}' holds an empty pipeline name: join pipeline names or paths with single commas")
    return names


def load_ensemble(names: Sequence[str], criterion: Optional[str] = None) -> SegmenterEnsemble:
    """The ensemble of the pipelines ``names`` (installed packages or paths; spacy.load).
    RAISES OSError: for a pipeline that cannot be found (spacy.load's E050,
        naming it); ValueError: as SegmenterEnsemble."""
    pipelines: List[Language] = [spacy.load(name) for name in names]
    return SegmenterEnsemble(pipelines, names, criterion)


def with_soft_targets(doc: Doc) -> Doc:
    """``doc`` (an ensemble's) with its doc._.gap_probs moved to doc._.gap_targets,
    the soft targets a student learns (training_steps.gold_loss). Where the
    Doc's words overrule the mean (a URL or a number kept whole, a force-mode
    user word: gap_decisions.mean_decision), the target is the words' 0 or 1,
    so a student is never taught to cut what the segmenter keeps whole."""
    targets = soft_targets(doc.text, words_of_doc(doc).words, doc._.gap_probs)
    set_gap_targets(doc, targets)
    set_gap_probs(doc, None)
    return doc
