"""The Transformer learning-rate schedule of the GD-Transformer paper (Table 4)."""
from typing import Iterable

from thinc.api import registry


@registry.schedules("spacy-cws.noam.v1")
def noam(width: int, warmup_steps: int, factor: float = 1.0) -> Iterable[float]:
    """Noam schedule (Vaswani et al. 2017), as Duan & Zhao 2020 train:
    lr(step) = factor * width^-0.5 * min(step^-0.5, step * warmup_steps^-1.5),
    step counted from 1: a linear warm-up to about factor * (width * warmup_steps)^-0.5,
    then inverse square-root decay. width=256, warmup_steps=8000 peak at about 7e-4.

    RAISES ValueError: for a width or warmup_steps below 1.
    """
    if width < 1 or warmup_steps < 1:
        raise ValueError(f"noam needs width >= 1 and warmup_steps >= 1, got {width}, {warmup_steps}")
    step = 1
    while True:
        yield factor * width**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)
        step += 1
