"""spaCy's training loop, made to survive a stop and continue where it was.

``spacy train`` cannot continue an interrupted run: a restart begins at step
0 with a new optimizer. This runs the same loop (spaCy's
``train_while_improving``, evaluation callback, logger, model-last and
model-best) and, at every evaluation and every ``save_seconds`` between
them, also saves what a restart needs in ``OUTPUT/resume``: the pipeline, the
optimizer's state (optimizer_state.py), the step, the best score and the
random generators' states. ``resume_training`` loads it and goes on, from the
step after, any number of times. The timed saves matter where steps are slow:
a teacher on two shared cores evaluates every hour or two, and a stop between
two evaluations would otherwise lose every step since the last.
Evaluations fall at the run's steps that are multiples of eval_frequency, and
at max_steps, however often it was resumed.

The batches are the same as in an uninterrupted run: each epoch's order comes
from a generator seeded with the training seed and the epoch, so a restart
makes the batches again and skips those already trained on.
"""
import pickle
import random
import shutil
import sys
import time
from itertools import islice
from pathlib import Path
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy
import spacy
from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.training.loop import (
    DIR_MODEL_BEST,
    DIR_MODEL_LAST,
    create_before_to_disk_callback,
    create_evaluation_callback,
    train_while_improving,
    update_meta,
)
from spacy.util import load_config, registry, resolve_dot_names
from thinc.api import fix_random_seed

from .optimizer_state import optimizer_state, restore_optimizer_state

RESUME_DIR = "resume"
# Between evaluations, what a restart needs is saved when this much time has
# passed since the last save (a save of the teacher's 230 MB takes seconds).
SAVE_SECONDS = 600.0
STATE_FILE = "training_state.pkl"
_MISSING = object()


class ResumeError(ValueError):
    """An output folder that holds no run to resume, or one that cannot be resumed."""


def resume_folder(output: Path) -> Path:
    """Where a run writing to ``output`` keeps what a restart needs."""
    return Path(output) / RESUME_DIR


def train_resumably(
    nlp: Language,
    output: Path,
    stdout: IO = sys.stdout,
    stderr: IO = sys.stderr,
    save_seconds: float = SAVE_SECONDS,
) -> Path:
    """Train the initialized ``nlp`` (spacy.training.initialize.init_nlp) as
    ``spacy train`` does, saving what a restart needs at every evaluation,
    and after any step that ends ``save_seconds`` or more after the last save
    (0: after every step).

    RETURNS: ``output/model-last``.
    RAISES ResumeError: if ``output`` already holds a resumable run.
    """
    if resume_folder(output).exists():
        raise ResumeError(f"{output} holds a run that can be resumed: resume it, or choose another output folder")
    return _train(nlp, Path(output), None, stdout, stderr, save_seconds)


def resume_training(
    output: Path, stdout: IO = sys.stdout, stderr: IO = sys.stderr, save_seconds: float = SAVE_SECONDS
) -> Path:
    """Continue the run that train_resumably (or an earlier resume) wrote to
    ``output``, from the step after its last save, with its config;
    ``save_seconds`` as train_resumably's.

    RETURNS: ``output/model-last``.
    RAISES ResumeError: if ``output`` holds no resumable run or its state
    cannot be read.
    """
    folder = resume_folder(output)
    if not (folder / STATE_FILE).exists():
        raise ResumeError(f"{output} holds no run to resume (no {folder / STATE_FILE})")
    try:
        with (folder / STATE_FILE).open("rb") as file_:
            state = pickle.load(file_)
        nlp = spacy.load(folder / "model")
    except (OSError, ValueError, pickle.UnpicklingError, EOFError) as err:
        raise ResumeError(f"Cannot resume from {folder}: {err}") from err
    return _train(nlp, Path(output), state, stdout, stderr, save_seconds)


def changed_settings(folder: Path, overrides: Dict[str, Any]) -> List[str]:
    """The ``overrides`` (spaCy's dotted names) that would change the config
    of the run saved in ``folder`` (resume_folder), as ``name: saved -> given``.

    RAISES ResumeError: if the saved config cannot be read."""
    try:
        config = load_config(Path(folder) / "model" / "config.cfg", interpolate=False)
    except (OSError, ValueError) as err:
        raise ResumeError(f"Cannot read the config of the run in {folder}: {err}") from err
    changed = []
    for name, value in overrides.items():
        section, *keys = name.split(".")
        saved: Any = config.get(section, {})
        for key in keys:
            saved = saved.get(key, _MISSING) if isinstance(saved, dict) else _MISSING
        if saved != value:
            changed.append(f"{name}: {'(none)' if saved is _MISSING else repr(saved)} -> {value!r}")
    return changed


def _train(
    nlp: Language, output: Path, state: Optional[Dict[str, Any]], stdout: IO, stderr: IO, save_seconds: float
) -> Path:
    config = nlp.config.interpolate()
    T = registry.resolve(config["training"], schema=ConfigSchemaTraining)
    train_corpus, dev_corpus = resolve_dot_names(config, [T["train_corpus"], T["dev_corpus"]])
    optimizer = T["optimizer"]
    seed = T["seed"] or 0
    if T["max_epochs"] < 0:
        raise ResumeError("A resumable run needs the corpus in memory: [training] max_epochs must be 0 or more")
    start = 0 if state is None else state["step"] + 1
    best = None if state is None else state["best_score"]
    batches = islice(_epoch_batches(nlp, train_corpus, T["batcher"], T["max_epochs"], seed), start, None)
    if T["max_steps"]:
        batches = islice(batches, max(T["max_steps"] - start + 1, 0))
    if state is None:
        fix_random_seed(seed)
    else:
        restore_optimizer_state(optimizer, nlp, state["optimizer"])
        _set_random_states(state["random"])
    before_update = T["before_update"]
    evaluate = create_evaluation_callback(nlp, dev_corpus, T["score_weights"])
    # spaCy's loop counts steps from 0 at each restart, so its evaluations
    # would fall at the restart step plus multiples of eval_frequency, and the
    # last steps of a resumed run might never be evaluated. It gets no
    # evaluation to do (a placeholder at its step 0, never again); the run
    # evaluates here, at its own steps that are multiples of eval_frequency
    # and at max_steps, and counts patience from them.
    steps = train_while_improving(
        nlp,
        optimizer,
        batches,
        lambda: (0.0, {}),
        dropout=T["dropout"],
        eval_frequency=sys.maxsize,
        accumulate_gradient=T["accumulate_gradient"],
        patience=0,
        max_steps=0,  # the batches stop at max_steps
        exclude=T["frozen_components"],
        annotating_components=T["annotating_components"],
        before_update=None if before_update is None else _offset_steps(before_update, start),
    )
    best_step = None if state is None else state.get("best_step", state["step"])
    before_to_disk = create_before_to_disk_callback(T["before_to_disk"])
    with nlp.select_pipes(disable=T["frozen_components"]):
        log_step, finalize_logger = T["logger"](nlp, stdout, stderr)
    output.mkdir(parents=True, exist_ok=True)
    last_save = time.monotonic()
    try:
        for _, info, _ in steps:
            info["step"] += start
            evaluated = info["step"] % T["eval_frequency"] == 0 or info["step"] == T["max_steps"]
            if evaluated:
                info["score"], info["other_scores"] = _evaluate(nlp, optimizer, evaluate)
                if best is None or info["score"] > best:
                    best, best_step = info["score"], info["step"]
                with nlp.select_pipes(disable=T["frozen_components"]):
                    update_meta(T, nlp, info)
                _save_models(before_to_disk(nlp), output, best_step == info["step"])
            if evaluated or time.monotonic() - last_save >= save_seconds:
                _save_state(nlp, optimizer, output, info["step"], best, best_step)
                last_save = time.monotonic()
            log_step(info if evaluated else None)
            if evaluated:
                info["losses"].clear()  # the losses of the steps since the last evaluation, as spaCy logs them
                if T["patience"] and info["step"] - best_step >= T["patience"]:
                    break
    finally:
        finalize_logger()
    before_to_disk(nlp).to_disk(output / DIR_MODEL_LAST)
    return output / DIR_MODEL_LAST


def _evaluate(nlp: Language, optimizer, evaluate: Callable) -> Tuple[float, Dict[str, Any]]:
    """The dev score and scores, with the optimizer's averaged weights where it keeps them (as spaCy's loop)."""
    if optimizer.averages:
        with nlp.use_params(optimizer.averages):
            return evaluate()
    return evaluate()


def _epoch_batches(
    nlp: Language, corpus: Callable, batcher: Callable, max_epochs: int, seed: int
) -> Iterator[Tuple[int, list]]:
    """``(epoch, batch)`` as spaCy's create_train_batches makes them, each
    epoch shuffled by its own generator (seed, epoch) so that a restart makes
    the same batches; written here because spaCy's shuffles with the global one."""
    examples = list(corpus(nlp))
    if not examples:
        raise ResumeError("The training corpus is empty")
    epoch = 0
    while not max_epochs or epoch < max_epochs:
        random.Random(seed * 100_003 + epoch).shuffle(examples)
        for batch in batcher(examples):
            yield epoch, batch
        epoch += 1


def _offset_steps(callback: Callable, start: int) -> Callable:
    """A before_update callback that sees the steps counted from the run's beginning."""

    def before_update(nlp: Language, args: Dict[str, Any]) -> None:
        callback(nlp, {**args, "step": args["step"] + start})

    return before_update


def _save_models(nlp: Language, output: Path, is_best: bool) -> None:
    nlp.to_disk(output / DIR_MODEL_LAST)
    if is_best:
        shutil.rmtree(output / DIR_MODEL_BEST, ignore_errors=True)
        shutil.copytree(output / DIR_MODEL_LAST, output / DIR_MODEL_BEST)


def _save_state(nlp: Language, optimizer, output: Path, step: int, best: float, best_step: int) -> None:
    """Write the restart state to a new folder, then put it in place, so a
    stop while writing leaves the previous state whole."""
    folder = resume_folder(output)
    new = folder.with_name(RESUME_DIR + ".new")
    shutil.rmtree(new, ignore_errors=True)
    new.mkdir(parents=True)
    nlp.to_disk(new / "model")
    state = {
        "step": step,
        "best_score": best,
        "best_step": best_step,
        "optimizer": optimizer_state(optimizer, nlp, step + 1),
        "random": _random_states(),
    }
    with (new / STATE_FILE).open("wb") as file_:
        pickle.dump(state, file_)
    old = folder.with_name(RESUME_DIR + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    new.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def _random_states() -> Dict[str, Any]:
    import torch

    return {"python": random.getstate(), "numpy": numpy.random.get_state(), "torch": torch.get_rng_state()}


def _set_random_states(states: Dict[str, Any]) -> None:
    import torch

    random.setstate(states["python"])
    numpy.random.set_state(states["numpy"])
    torch.set_rng_state(states["torch"])
