"""Learning the user's segmentation standard from a few hundred gold sentences.

What raw text cannot teach is a standard: where a domain's annotators put
the boundaries (how finely to cut, aspect markers, titles after names). A
user who segments a few hundred sentences shows it. The segmenter learns it
as a new criterion (segmenter/new_criterion.py): a criterion embedding
(Qiu et al. 2020), gap scoring heads of its own, copies of the shared
ones, and (``top_layer``, the default) its own copy of every encoder's top
layer, so that it learns inside the encoders too. Only those learn; the
shared encoder layers, the tables and the source's heads and embedding rows
stay frozen, so the source criterion segments exactly as the source did,
whatever the new one learns (fine-tuning the shared weights would move it
too).

Given the domain's raw text, the new criterion then goes on learning from
it too: it labels the raw text, its confident gaps become partial labels
(self_training.partial_labels; Liu et al. 2014), and each step takes a gold
batch and a raw batch (self-training on a few-shot standard, as Liu & Zhang
2012 self-train a domain). Figures: docs/experiments/adaptation.md.
"""
import contextlib
import math
import random
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

import numpy

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import fix_random_seed
from thinc.api import Adam
from tqdm import tqdm

from ..segmenter.component import Segmenter
from ..segmenter.new_criterion import add_new_criterion
from .self_training import first_and_last_losses, partial_labels, shuffled_batches


@dataclass
class FewShotSettings:
    """criterion: the name of the user's standard, the adapted pipeline's
    default criterion; source_criterion: the name the standard of a
    single-criterion source gets (a multi-criteria source's criteria keep
    theirs); top_layer: the new criterion also gets its own copy of every
    encoder's top layer, which learns too (False: heads and embedding row
    only); steps: optimizer steps, or None for ``min_steps`` or, for a
    larger gold file, ``passes`` passes over it; batch_chars: gold
    characters per step (about); learn_rate: Adam's, for the new heads and
    layers; criterion_learn_rate: for the new criterion's embedding row;
    dropout: training dropout; seed: of the batches and of dropout."""

    criterion: str = "user"
    source_criterion: str = "source"
    top_layer: bool = True
    steps: Optional[int] = None
    min_steps: int = 150
    passes: float = 3.0
    batch_chars: int = 1_000
    learn_rate: float = 1e-3
    criterion_learn_rate: float = 1e-2
    dropout: float = 0.1
    seed: int = 0
    raw_steps: int = 300
    raw_threshold: float = 0.95

    def check(self) -> None:
        """RAISES ValueError: for settings out of range or an empty criterion name."""
        if not self.criterion or not self.source_criterion:
            raise ValueError("The criteria need names (criterion, source_criterion)")
        if (self.steps is not None and self.steps < 0) or self.min_steps < 0 or self.batch_chars < 1:
            raise ValueError(
                f"steps and min_steps must be >= 0 and batch_chars >= 1, got {self.steps}, {self.min_steps} "
                f"and {self.batch_chars}"
            )
        if self.passes <= 0 or self.learn_rate <= 0 or self.criterion_learn_rate <= 0 or not 0 <= self.dropout < 1:
            raise ValueError("passes, learn_rate and criterion_learn_rate must be > 0 and dropout in [0, 1)")
        if self.raw_steps < 0 or not 0.5 < self.raw_threshold <= 1.0:
            raise ValueError(
                f"raw_steps must be >= 0 and raw_threshold above 0.5 and at most 1, got {self.raw_steps} "
                f"and {self.raw_threshold}"
            )

    def steps_for(self, n_characters: int) -> int:
        """The optimizer steps for gold sentences of ``n_characters``: ``steps``
        if set, else ``min_steps`` or ``passes`` passes, whichever is more."""
        if self.steps is not None:
            return self.steps
        return max(self.min_steps, math.ceil(self.passes * n_characters / self.batch_chars))


def learn_gold_standard(
    nlp: Language,
    segmenter: Segmenter,
    gold: Sequence[Sequence[str]],
    settings: FewShotSettings,
    progress: bool = False,
) -> Dict[str, float]:
    """Teach ``segmenter`` (a gd_segmenter of ``nlp`` with a GD-Transformer)
    the standard of the ``gold`` sentences (each its words) as the new
    criterion ``settings.criterion``, in place, and make that the default
    criterion (in ``nlp.config`` too, with the new heads, so the saved
    pipeline loads with them).

    RETURNS: statistics: the source criterion's name, the steps, the mean
        gold loss of the first and last tenth of the steps, seconds.
    RAISES ValueError: for settings out of range, a model that is not a
        GD-Transformer, or a criterion the segmenter has already;
        ImportError: without torch, naming the train extra.
    """
    from ..backends.choice import require_torch

    settings.check()
    require_torch("Learning a standard from gold sentences")
    fix_random_seed(settings.seed)
    started = time.perf_counter()
    config = nlp.get_pipe_config(segmenter.name)
    source = add_new_criterion(
        segmenter, settings.criterion, settings.source_criterion, config["model"], settings.top_layer
    )
    examples = [_gold_example(nlp, words, settings.criterion) for words in gold]
    texts = [eg.reference.text for eg in examples]
    batches = shuffled_batches(texts, settings.batch_chars, random.Random(settings.seed))
    steps = settings.steps_for(sum(len(text) for text in texts))
    losses: List[float] = []
    with _new_criterion_learns(segmenter, settings) as optimizer:
        for _ in tqdm(range(steps), desc="gold", unit=" steps", disable=not progress):
            batch = [examples[i] for i in next(batches)]
            losses.append(segmenter.update(batch, drop=settings.dropout, sgd=optimizer)[segmenter.name])
    segmenter.cfg["criterion"] = config["criterion"] = settings.criterion
    first, last = first_and_last_losses(losses)
    return {
        "source_criterion": source, "steps": steps, "first_gold_loss": first, "last_gold_loss": last,
        "seconds": time.perf_counter() - started,
    }


def learn_from_raw_text(
    nlp: Language,
    segmenter: Segmenter,
    gold: Sequence[Sequence[str]],
    texts: Sequence[str],
    gap_probs: Sequence[numpy.ndarray],
    settings: FewShotSettings,
    progress: bool = False,
) -> Dict[str, float]:
    """Go on teaching the new default criterion of ``segmenter`` (after
    learn_gold_standard) for ``settings.raw_steps`` steps, each a batch of the
    ``gold`` sentences and a batch of the raw ``texts``, in place. The raw
    texts' labels are their gaps of ``gap_probs`` at least
    ``raw_threshold`` (a boundary) or at most 1 - it (none); the other gaps
    are left out of the loss. Only the new criterion's weights learn, as in
    learn_gold_standard.

    gap_probs: per text float32 (len(text) - 1,), the segmenter's own by
        the new criterion (Segmenter.segment_with_probs).
    RETURNS: statistics: the steps, the labelled share of the raw gaps, the
        mean raw-text loss of the first and last tenth of the steps, seconds.
    RAISES ValueError: for settings out of range; ImportError: without torch, naming the train extra.
    """
    from ..backends.choice import require_torch

    settings.check()
    require_torch("Learning a standard from gold sentences and raw text")
    fix_random_seed(settings.seed + 1)
    started = time.perf_counter()
    examples = [_gold_example(nlp, words, settings.criterion) for words in gold]
    labels = [partial_labels(probs, settings.raw_threshold) for probs in gap_probs]
    n_gaps = sum(len(seq) for seq in labels)
    labelled = sum(int((seq >= 0).sum()) for seq in labels) / max(n_gaps, 1)
    rng = random.Random(settings.seed + 1)
    gold_batches = shuffled_batches([eg.reference.text for eg in examples], settings.batch_chars, rng)
    raw_batches = shuffled_batches(texts, settings.batch_chars, rng)
    losses: List[float] = []
    with _new_criterion_learns(segmenter, settings) as optimizer:
        for _ in tqdm(range(settings.raw_steps), desc="gold and raw text", unit=" steps", disable=not progress):
            segmenter.update([examples[i] for i in next(gold_batches)], drop=settings.dropout, sgd=optimizer)
            batch = next(raw_batches)
            step = segmenter.update_partial(
                [texts[i] for i in batch], [labels[i] for i in batch], drop=settings.dropout, sgd=optimizer
            )
            losses.append(step[segmenter.name])
    first, last = first_and_last_losses(losses)
    return {
        "raw_steps": settings.raw_steps, "labelled_raw_gap_share": labelled, "first_raw_loss": first,
        "last_raw_loss": last, "raw_seconds": time.perf_counter() - started,
    }


@contextlib.contextmanager
def _new_criterion_learns(segmenter: Segmenter, settings: FewShotSettings):
    """Within: only the criterion parameters (CRITERION_PARAMETERS: the new
    criterion's row, heads and layers) take gradients; yields the optimizer."""
    from ..nets.criterion_growth import CRITERION_PARAMETERS
    from ..nets.wrapped_module import torch_module

    module = torch_module(segmenter.model)
    requires_grad = {name: p.requires_grad for name, p in module.named_parameters()}
    for name, p in module.named_parameters():
        p.requires_grad_(name.startswith(CRITERION_PARAMETERS))
    try:
        yield _CriterionRate(Adam(settings.learn_rate), settings.criterion_learn_rate / settings.learn_rate)
    finally:
        for name, p in module.named_parameters():
            p.requires_grad_(requires_grad[name])


class _CriterionRate:
    """A thinc optimizer whose learning rate is ``scale`` times larger for the criterion embeddings."""

    def __init__(self, optimizer, scale: float):
        self.optimizer = optimizer
        self.scale = scale

    def __call__(self, key, weights, gradient, *, lr_scale: float = 1.0):
        if key[1] == "criterion_embedding.weight":
            lr_scale *= self.scale
        return self.optimizer(key, weights, gradient, lr_scale=lr_scale)

    def __getattr__(self, name):
        return getattr(self.optimizer, name)


def _gold_example(nlp: Language, words: Sequence[str], criterion: str) -> Example:
    """A training Example: the text as the pipeline's tokenizer makes it, the
    words as reference, under ``criterion``."""
    reference = Doc(nlp.vocab, words=list(words), spaces=[False] * len(words))
    reference._.cws_criterion = criterion
    return Example(nlp.make_doc(reference.text), reference)
