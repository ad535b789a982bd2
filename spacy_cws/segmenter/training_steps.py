"""How a segmenter's model learns: a step on examples, whose reference Docs
give the words (spaCy's ``update`` and ``get_loss``), or on raw texts with
partial gap labels (``update_partial``; partial_labels.py), and the loss of each.
"""
from functools import partial
from typing import Callable, List, Optional, Sequence, Tuple

import numpy
from spacy.errors import Errors
from spacy.training import Example
from thinc.api import Model, set_dropout_rate
from thinc.types import Floats3d

from ..decoding.gap_labels import gap_labels, unit_starts_word
from ..features.character_view import CharacterView
from ..lexicon.match_features import text_fold
from .featurizer import Featurizer
from .gap_targets_extension import ATTR as GAP_TARGETS
from .gap_targets_extension import get_gap_targets
from .network import SegmenterNetwork
from .partial_labels import masked_softmax_cross_entropy, unit_gap_labels

# Per text its view, per text its model sequences' unit spans, per sequence its features.
Features = Tuple[List[CharacterView], List[List[Tuple[int, int]]], List[numpy.ndarray]]


class SegmenterTraining:
    """The training steps of ``network``'s model on the features that
    ``featurizer`` makes, under the settings ``cfg`` (the component's cfg:
    criterion, jackknife_folds). A step computes the loss and leaves the
    gradients on the model (the component updates the weights). Each call
    takes the component's name (``component``) for its messages."""

    def __init__(self, featurizer: Featurizer, network: SegmenterNetwork, cfg: dict):
        self.featurizer = featurizer
        self.network = network
        self.cfg = cfg

    def featurize(
        self,
        texts: Sequence[str],
        criteria: Sequence[Optional[str]],
        component: str,
        folds: Optional[Sequence[int]] = None,
        training: bool = False,
    ) -> Features:
        """Views, sequence spans per text, and per sequence (flat, in order) the
        int64 (n, 11 + K) features of its symbols (Featurizer.featurize).

        criteria: per text its criterion name, or None for the default.
        folds: per training text its jackknife fold; None at inference.
        training: whether the word slots replace words by POS (Gan & Zhang 2020, eq. 15).
        RAISES ValueError: for an unknown criterion, naming the known ones.
        """
        ids = self.featurizer.criterion_ids(criteria, self.cfg["criterion"], component)
        return self.featurizer.featurize(texts, ids, folds, training)

    def example_features(self, examples: Sequence[Example], component: str) -> Features:
        """``featurize`` for training: each text's criterion is its reference
        Doc's corpus, and its jackknife fold a hash of its text."""
        texts = [eg.predicted.text for eg in examples]
        n_folds = self.cfg["jackknife_folds"]
        folds = [text_fold(text, n_folds) for text in texts] if n_folds else None
        return self.featurize(texts, [eg.reference._.cws_criterion for eg in examples], component, folds, training=True)

    def example_loss(
        self, examples: Sequence[Example], scores: List[Floats3d], component: str
    ) -> Tuple[float, List[Floats3d]]:
        """Segmenter.get_loss: the loss of ``scores`` for the examples (gold_loss)."""
        self.network.require_weights(component)
        views, spans, _ = self.example_features(examples, component)
        return gold_loss(self.network.model, examples, views, spans, scores, component)

    def example_step(self, examples: Sequence[Example], drop: float, component: str) -> float:
        """Backpropagate the loss of the examples (gold_loss), with dropout ``drop``.
        RETURNS the loss. RAISES ValueError: as gold_loss, or if there is no trained network."""
        self.network.check_initialized(component)
        self.network.require_weights(component)
        set_dropout_rate(self.network.model, drop)
        views, spans, sequences = self.example_features(examples, component)
        loss_of = partial(gold_loss, self.network.model, examples, views, spans, component=component)
        return self._step(sequences, loss_of)

    def partial_step(
        self, texts: Sequence[str], char_labels: Sequence[numpy.ndarray], drop: float, component: str
    ) -> Optional[float]:
        """Backpropagate the loss of the labelled gaps of ``texts``
        (partial_gap_loss), with dropout ``drop``, by the default criterion.
        RETURNS the loss; None for texts without characters.
        RAISES ValueError: as check_partial_labels, or if there is no trained network."""
        self.network.check_initialized(component)
        texts = list(texts)
        check_partial_labels(self.network.model, texts, char_labels, component)
        self.network.require_weights(component)
        set_dropout_rate(self.network.model, drop)
        views, spans, sequences = self.featurize(texts, [None] * len(texts), component)
        if not sequences:
            return None
        loss_of = partial(partial_gap_loss, self.network.model, views, spans, char_labels, component=component)
        return self._step(sequences, loss_of)

    def _step(self, sequences: List[numpy.ndarray], loss_of: Callable) -> float:
        """Score the sequences and backpropagate ``loss_of(scores)`` (loss, d_scores). RETURNS the loss."""
        scores, backprop = self.network.model.begin_update(sequences)
        loss, d_scores = loss_of(scores)
        backprop(d_scores)
        return loss


def gold_loss(
    model: Model,
    examples: Sequence[Example],
    views: List[CharacterView],
    spans: List[List[Tuple[int, int]]],
    scores: List[Floats3d],
    component: str,
) -> Tuple[float, List[Floats3d]]:
    """The model's loss (label_schemes): for gaps, softmax cross-entropy per
    head (final and, with Highway-O, early), each a mean over all gaps of the
    batch, summed 1:1 as in the paper; for B/M/E/S tags, the CRF negative
    log-likelihood or softmax cross-entropy, a mean over characters. The gold
    labels come from the reference Docs' word starts, or where some reference
    Doc has soft targets (doc._.gap_targets) from soft_gap_loss.

    views, spans: per example its view and model sequences' unit spans.
    scores: per model sequence, as from the model: (H, n + 1, 2) gap logits
        or (1, n, 4) tag scores.
    RETURNS: (loss, d_scores of the same shapes).
    RAISES ValueError: if a reference text differs from its predicted text,
        the loss is NaN, or a reference Doc has soft targets for a B/M/E/S model.
    """
    from ..decoding.label_schemes import label_scheme  # imports torch: the module imports without it

    for eg in examples:
        if eg.reference.text != eg.predicted.text:
            raise ValueError(
                f"'{component}' needs the reference and predicted texts to be identical; "
                f"got '{eg.reference.text[:50]}' and '{eg.predicted.text[:50]}'"
            )
    if any(get_gap_targets(eg.reference) is not None for eg in examples):
        return soft_gap_loss(model, examples, views, spans, scores, component)
    scheme = label_scheme(model)
    labels: List[numpy.ndarray] = []
    for eg, view, text_spans in zip(examples, views, spans):
        labels.extend(scheme.gold(reference_starts(eg, view), text_spans))
    return _checked(scheme.loss(model, scores, labels), component)


def reference_starts(eg: Example, view: CharacterView) -> numpy.ndarray:
    """bool (n_units,): whether a word of the example's reference Doc starts at each unit."""
    return unit_starts_word(view, (token.idx for token in eg.reference if not token.is_space))


def soft_gap_loss(
    model: Model,
    examples: Sequence[Example],
    views: List[CharacterView],
    spans: List[List[Tuple[int, int]]],
    scores: List[Floats3d],
    component: str,
) -> Tuple[float, List[Floats3d]]:
    """gold_loss of a batch some of whose reference Docs have soft targets
    (doc._.gap_targets): softmax cross-entropy against soft targets over the
    counted gaps (partial_labels.masked_softmax_cross_entropy). A Doc with
    targets gives them (-1: masked); a Doc without gives its words' gap
    labels as 0/1 targets, every gap counted, which is exactly the loss of
    the words alone (tests/segmenter/test_soft_gap_targets.py).

    RAISES ValueError: for a B/M/E/S model, or a NaN loss.
    """
    require_gap_model(model, component, f"soft gap targets (doc._.{GAP_TARGETS})")
    targets: List[numpy.ndarray] = []
    counted: List[numpy.ndarray] = []
    for eg, view, text_spans in zip(examples, views, spans):
        doc_targets = get_gap_targets(eg.reference)
        if doc_targets is not None:
            pairs = unit_gap_labels(view, text_spans, doc_targets)
            targets.extend(pair[0] for pair in pairs)
            counted.extend(pair[1] for pair in pairs)
        else:
            for labels in gap_labels(reference_starts(eg, view), text_spans):
                targets.append(labels.astype(numpy.float32))
                counted.append(numpy.ones(len(labels), dtype=bool))
    return _checked(masked_softmax_cross_entropy(model.ops, scores, targets, counted), component)


def require_gap_model(model: Model, component: str, labels: str) -> None:
    """RAISES ValueError: if the model predicts B/M/E/S tags, which cannot
    learn from ``labels`` (what the caller would train on) as a gap model can."""
    if model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(f"'{component}' tags B/M/E/S: learning from {labels} needs a gap model (GD-Transformer)")


def check_partial_labels(
    model: Model, texts: Sequence[str], char_labels: Sequence[numpy.ndarray], component: str
) -> None:
    """RAISES ValueError: if the model predicts B/M/E/S tags, or a text's
    labels are not one per gap between its characters."""
    require_gap_model(model, component, "partial gap labels")
    for text, labels in zip(texts, char_labels):
        if len(labels) != max(len(text) - 1, 0):
            raise ValueError(
                f"A text of {len(text)} characters needs {max(len(text) - 1, 0)} gap labels, got {len(labels)}"
            )


def partial_gap_loss(
    model: Model,
    views: List[CharacterView],
    spans: List[List[Tuple[int, int]]],
    char_labels: Sequence[numpy.ndarray],
    scores: List[Floats3d],
    component: str,
) -> Tuple[float, List[Floats3d]]:
    """Softmax cross-entropy over the labelled gaps only (partial_labels.py).

    char_labels: per text its gap labels (Segmenter.update_partial).
    scores: per model sequence its (H, n + 1, 2) gap logits.
    RAISES ValueError: if the loss is NaN.
    """
    gold = [pair for parts in zip(views, spans, char_labels) for pair in unit_gap_labels(*parts)]
    targets, counted = [g[0] for g in gold], [g[1] for g in gold]
    return _checked(masked_softmax_cross_entropy(model.ops, scores, targets, counted), component)


def _checked(loss_and_gradient: Tuple[float, List[Floats3d]], component: str) -> Tuple[float, List[Floats3d]]:
    """RAISES ValueError (spaCy's E910) for a NaN loss."""
    if numpy.isnan(loss_and_gradient[0]):
        raise ValueError(Errors.E910.format(name=component))
    return loss_and_gradient
