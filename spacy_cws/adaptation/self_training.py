"""Confidence-filtered self-training on the domain's raw text.

The segmenter labels the raw text itself; a gap whose boundary probability
(doc._.gap_probs) is at least ``threshold`` becomes a boundary label, at most
1 - ``threshold`` a no-boundary label, and every other gap is masked out of the
loss (Liu & Zhang 2012, "Unsupervised domain adaptation for joint segmentation
and POS-tagging", COLING; Ding et al. 2020, "Coupling distant annotation and
adversarial training for cross-domain Chinese word segmentation", ACL: keep
only high-confidence labels; a partially labelled sentence is a sentence
some of whose gaps count, Liu et al. 2014). Fine-tuning starts from the
pipeline's weights, with the mined lexicon active, so the labels carry what
the lexicon taught.

Forgetting the source domain is held off by few steps, a small learning
rate and distillation: a gap below the threshold is not simply masked but
gets the starting model's own probability as a soft target (``distill``,
the default; with it off, it is masked), so the model keeps its view of the
gaps it is unsure of. Optionally L2-SP (Li, Grandvalet & Davoine 2018,
"Explicit inductive bias for transfer learning with convolutional
networks", ICML) adds a penalty ``l2sp / 2 * ||w - w0||^2`` toward the
starting weights w0 to the gradients before each step. On ZX dev and CTB6 dev
(docs/experiments/adaptation.md) distillation kept CTB6 within 0.05 F1,
masking alone lost 0.2 to 0.4, and L2-SP at 0.01 changed little.
"""
import random
import time
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy
from spacy.util import fix_random_seed
from thinc.api import Adam
from tqdm import tqdm


@dataclass
class SelfTrainingSettings:
    """steps: optimizer steps; batch_chars: characters of raw text per step
    (about); threshold: the gap probability that makes a label (and 1 - it
    for no boundary); learn_rate: Adam's; l2sp: the L2-SP penalty's weight;
    dropout: training dropout; distill: the gaps below the threshold get
    the starting model's probability as a soft target instead of no loss
    (distillation, a guard against forgetting); seed: of the order of the
    texts and of dropout (spacy.util.fix_random_seed)."""

    steps: int = 100
    batch_chars: int = 2_000
    threshold: float = 0.95
    learn_rate: float = 1e-4
    l2sp: float = 0.0
    dropout: float = 0.1
    distill: bool = True
    seed: int = 0

    def check(self) -> None:
        """RAISES ValueError: for settings out of range."""
        if not 0.5 < self.threshold <= 1.0:
            raise ValueError(f"The threshold is a gap probability above 0.5 and at most 1, got {self.threshold}")
        if self.steps < 0 or self.batch_chars < 1:
            raise ValueError(f"steps must be >= 0 and batch_chars >= 1, got {self.steps} and {self.batch_chars}")
        if self.learn_rate <= 0 or self.l2sp < 0 or not 0 <= self.dropout < 1:
            raise ValueError("learn_rate must be > 0, l2sp >= 0 and dropout in [0, 1)")


def partial_labels(gap_probs: numpy.ndarray, threshold: float, distill: bool = False) -> numpy.ndarray:
    """float32 per gap: 1 where gap_probs >= threshold, 0 where <= 1 - threshold;
    elsewhere -1 (masked), or with ``distill`` the probability itself (a soft
    target: the starting model's own view of the gaps it is unsure of)."""
    if distill:
        labels = numpy.array(gap_probs, dtype=numpy.float32)
    else:
        labels = numpy.full(len(gap_probs), -1, dtype=numpy.float32)
    labels[gap_probs >= threshold] = 1.0
    labels[gap_probs <= 1.0 - threshold] = 0.0
    return labels


def shuffled_batches(texts: Sequence[str], batch_chars: int, rng: random.Random):
    """Endless shuffled batches of text indices, about batch_chars characters each."""
    order = list(range(len(texts)))
    while True:
        rng.shuffle(order)
        batch: List[int] = []
        size = 0
        for index in order:
            batch.append(index)
            size += len(texts[index])
            if size >= batch_chars:
                yield batch
                batch, size = [], 0
        if batch:
            yield batch


def self_train(
    segmenter,
    texts: Sequence[str],
    gap_probs: Sequence[numpy.ndarray],
    settings: SelfTrainingSettings,
    progress: bool = False,
) -> Dict[str, float]:
    """Fine-tune ``segmenter`` (a gd_segmenter with a gap model) in place on
    its own confident gaps of ``texts``.

    gap_probs: per text float32 (len(text) - 1,), the segmenter's own
        (Segmenter.segment_with_probs, with the lexicon active).
    RETURNS: statistics: labelled share of gaps, mean loss of the first and
        last tenth of the steps, seconds.
    RAISES ValueError: for settings out of range, or a model that tags B/M/E/S;
        ImportError: without torch, naming the train extra.
    """
    from ..backends.choice import require_torch

    settings.check()
    require_torch("Self-training a segmenter")
    import torch

    from ..nets.wrapped_module import torch_module

    if segmenter.model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(
            f"'{segmenter.name}' tags B/M/E/S: self-training needs a gap model (GD-Transformer); use --lexicon-only"
        )
    fix_random_seed(settings.seed)  # dropout and batch order: the same run gives the same weights
    started = time.perf_counter()
    labels = [partial_labels(probs, settings.threshold, settings.distill) for probs in gap_probs]
    n_gaps = sum(len(seq) for seq in labels)
    labelled = sum(int(((seq == 0) | (seq == 1)).sum()) for seq in labels) / max(n_gaps, 1)
    segmenter.network.require_weights(segmenter.name)
    module = torch_module(segmenter.model)
    params = [p for p in module.parameters() if p.requires_grad]
    anchors = [p.detach().clone() for p in params]
    optimizer = Adam(settings.learn_rate)
    rng = random.Random(settings.seed)
    batches = shuffled_batches(texts, settings.batch_chars, rng)
    losses: List[float] = []
    for _ in tqdm(range(settings.steps), desc="self-training", unit=" steps", disable=not progress):
        batch = next(batches)
        step = segmenter.update_partial(
            [texts[i] for i in batch], [labels[i] for i in batch], drop=settings.dropout, sgd=None
        )
        losses.append(step[segmenter.name])
        if settings.l2sp:
            with torch.no_grad():
                for param, anchor in zip(params, anchors):
                    if param.grad is not None:
                        param.grad.add_(param.detach() - anchor, alpha=settings.l2sp)
        segmenter.finish_update(optimizer)
    first, last = first_and_last_losses(losses)
    seconds = time.perf_counter() - started
    return {"labelled_gap_share": labelled, "first_loss": first, "last_loss": last, "seconds": seconds}


def first_and_last_losses(losses: Sequence[float]) -> Tuple[float, float]:
    """The mean loss of the first and of the last tenth of the steps (0.0 without steps)."""
    if not losses:
        return 0.0, 0.0
    tenth = max(len(losses) // 10, 1)
    return float(numpy.mean(losses[:tenth])), float(numpy.mean(losses[-tenth:]))
