"""``python -m spacy_cws train CONFIG --output DIR [--resume]``: spaCy's training that survives a stop."""
from pathlib import Path
import typer
from wasabi import msg

from ..backends.choice import require_torch
from . import app
from .errors import fail


@app.command("train", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def train_cli(
    ctx: typer.Context,
    config_path: Path = typer.Argument(
        ..., help="The training config (configs/*.cfg); a resumed run keeps the one it began with."
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for model-best, model-last and the restart state."),
    resume: bool = typer.Option(
        False, "--resume", help="Continue the run in OUTPUT from its last save (begin one if there is none)."
    ),
    save_minutes: float = typer.Option(
        10.0, "--save-minutes", min=0.0,
        help=(
            "Between evaluations, also save the restart state when this many minutes have passed "
            "since the last save (0: after every step)."
        ),
    ),
):
    """Train as `spacy train` does, but so that a stopped run can continue.

    Takes spaCy's config overrides (--paths.train PATH, --training.max_steps
    N, ...). At every evaluation it saves, besides model-last and
    model-best, what a restart needs in OUTPUT/resume: the pipeline, the
    optimizer's state, the step, the random generators; between evaluations
    it saves that state every --save-minutes. With --resume, a run stopped at
    any point (Ctrl-C, a killed job, a machine gone) continues from the step
    after its last save with the config it began with,
    any number of times; the batches are those of an uninterrupted run.
    Overrides given with --resume must be those the run began with (so the
    same command line begins and continues a run)."""
    try:
        require_torch("Training")
    except ImportError as err:
        fail(str(err))
    from spacy.cli._util import parse_config_overrides
    from spacy.training.initialize import init_nlp
    from spacy.util import load_config
    from thinc.api import ConfigValidationError

    from ..training.resumable_training import (
        ResumeError,
        changed_settings,
        resume_folder,
        resume_training,
        train_resumably,
    )

    overrides = parse_config_overrides(ctx.args)
    try:
        if resume and resume_folder(output).exists():
            changed = changed_settings(resume_folder(output), overrides)
            if changed:
                fail(f"A resumed run keeps the config it began with, but these overrides change it: {changed}.")
            msg.info(f"Resuming the run in {output}")
            last = resume_training(output, save_seconds=60 * save_minutes)
        else:
            if not config_path.exists():
                fail(f"The config {config_path} does not exist.")
            try:
                nlp = init_nlp(load_config(config_path, overrides=overrides, interpolate=False))
            except (OSError, ValueError, KeyError, ConfigValidationError) as err:
                fail(f"Cannot initialize the pipeline of {config_path}: {err}")
            last = train_resumably(nlp, output, save_seconds=60 * save_minutes)
    except ResumeError as err:
        fail(str(err))
    msg.good(f"Saved the pipeline to {last}")
