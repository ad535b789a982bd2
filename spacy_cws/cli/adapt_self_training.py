"""Whether ``adapt`` self-trains, and how: from its options, or one line saying which options conflict."""
from pathlib import Path
from typing import Optional

from ..backends.choice import require_torch
from .errors import fail


def self_training_options(
    self_train: bool, lexicon_only: bool, no_lexicon: bool, gold: Optional[Path], suggest: Optional[int], **tuning
):
    """The SelfTrainingSettings of ``adapt``, or None: it self-trains with --self-train, or with --no-lexicon
    without --gold.

    tuning: steps, threshold, learn_rate, l2sp (None where not given) and
        mask_only (False where not given), the options that tune self-training.
    Fails (exit 1) for --lexicon-only with either, --gold with either (it
    replaces self-training), tuning options without either, and
    self-training without torch (before any work).
    """
    from ..adaptation.self_training import SelfTrainingSettings

    trains = self_train or (no_lexicon and gold is None)
    asked = "--self-train" if self_train else "--no-lexicon"
    if lexicon_only and trains:
        fail(f"--lexicon-only trains nothing; {asked} self-trains: pass one of them.")
    if gold is not None and trains:
        fail(f"--gold learns a standard instead of self-training: pass one of --gold and {asked}.")
    given = {name: value for name, value in tuning.items() if value not in (None, False)}
    if given and not trains:
        names = ", ".join("--" + name.replace("_", "-") for name in given)
        fail(f"{names} tune self-training, which runs with --self-train only: add it, or leave them out.")
    if not trains or suggest is not None:
        return None
    try:  # before minutes of mining
        require_torch("Self-training (adapt --self-train)")
    except ImportError as err:
        fail(str(err))
    mask_only = given.pop("mask_only", False)
    return SelfTrainingSettings(**given, distill=not mask_only)
