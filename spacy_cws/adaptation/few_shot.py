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
too). Figures: docs/experiments/adaptation.md.
"""
import math
import random
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import fix_random_seed
from thinc.api import Adam
from tqdm import tqdm

from ..segmenter.component import Segmenter
from ..segmenter.new_criterion import add_new_criterion
from .self_training import first_and_last_losses, shuffled_batches


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
    from ..nets.criterion_growth import CRITERION_PARAMETERS
    from ..nets.wrapped_module import torch_module

    fix_random_seed(settings.seed)
    started = time.perf_counter()
    config = nlp.get_pipe_config(segmenter.name)
    source = add_new_criterion(
        segmenter, settings.criterion, settings.source_criterion, config["model"], settings.top_layer
    )
    examples = [_gold_example(nlp, words, settings.criterion) for words in gold]
    module = torch_module(segmenter.model)
    requires_grad = {name: p.requires_grad for name, p in module.named_parameters()}
    for name, p in module.named_parameters():
        p.requires_grad_(name.startswith(CRITERION_PARAMETERS))
    optimizer = _CriterionRate(Adam(settings.learn_rate), settings.criterion_learn_rate / settings.learn_rate)
    texts = [eg.reference.text for eg in examples]
    batches = shuffled_batches(texts, settings.batch_chars, random.Random(settings.seed))
    steps = settings.steps_for(sum(len(text) for text in texts))
    losses: List[float] = []
    try:
        for _ in tqdm(range(steps), desc="gold", unit=" steps", disable=not progress):
            batch = [examples[i] for i in next(batches)]
            losses.append(segmenter.update(batch, drop=settings.dropout, sgd=optimizer)[segmenter.name])
    finally:
        for name, p in module.named_parameters():
            p.requires_grad_(requires_grad[name])
    segmenter.cfg["criterion"] = config["criterion"] = settings.criterion
    first, last = first_and_last_losses(losses)
    return {
        "source_criterion": source, "steps": steps, "first_gold_loss": first, "last_gold_loss": last,
        "seconds": time.perf_counter() - started,
    }


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
