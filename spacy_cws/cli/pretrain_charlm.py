"""``python -m spacy_cws pretrain-charlm OUTPUT CORPUS... [--resume]``: a masked character LM from training text."""
import sys
from pathlib import Path
from typing import List

import typer
from wasabi import msg

from . import app
from .errors import fail

DEFAULT_CONFIG = Path("configs/charlm.cfg")


@app.command("pretrain-charlm", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def pretrain_charlm_cli(
    ctx: typer.Context,
    output: Path = typer.Argument(..., help="Folder for the run: checkpoints, then OUTPUT/model."),
    corpora: List[Path] = typer.Argument(
        ..., help="Training splits (never dev or test): DocBin corpora or review CSVs (a 'review' column)."
    ),
    exclude: List[Path] = typer.Option(
        [], "--exclude", "-x", help="A dev or test split (DocBin): its texts are dropped wherever they occur (repeat)."
    ),
    config_path: Path = typer.Option(DEFAULT_CONFIG, "--config", "-c", help="The LM's settings."),
    resume: bool = typer.Option(
        False, "--resume", help="Continue from the last checkpoint in OUTPUT (begin a run if there is none)."
    ),
    max_minutes: float = typer.Option(
        None, "--max-minutes", help="Stop with a checkpoint after this many minutes of training (--resume continues)."
    ),
):
    """Pretrain a BERT-style masked character LM on the raw text of CORPORA.

    The texts are de-duplicated (the first copy kept, in the order given),
    those of the --exclude files (dev and test splits) dropped, and 1% of
    them held out by the MD5 of the text (configs/charlm.cfg,
    section text). transformers' Trainer trains BertForMaskedLM with character
    wordpieces and saves a checkpoint every save_steps steps; --resume
    continues a stopped run, any number of times, with the settings it
    began with; --max-minutes stops a run early, with a checkpoint, for
    --resume to continue. Writes OUTPUT/model (load it by path with transformers or
    spacy-transformers, offline) and OUTPUT/metrics.json (texts per source,
    steps, masked-LM accuracy on the held-out texts). Takes config overrides
    (--training.steps 200). Needs torch, transformers and accelerate
    (the extras 'train' and 'charlm')."""
    from spacy.cli._util import parse_config_overrides
    from spacy.util import load_config
    from thinc.api import ConfigValidationError

    from ..charlm.pretraining import CharLMSettings, pretrain_charlm
    from ..charlm.pretraining_text import collect_pretraining_text

    # The corpora argument takes every argument after OUTPUT, the config overrides (--section.key value) too.
    first_override = next((i for i, path in enumerate(corpora) if str(path).startswith("--")), len(corpora))
    overrides = [str(arg) for arg in corpora[first_override:]] + ctx.args
    corpora = corpora[:first_override]
    if not corpora:
        fail("Give the training corpora: DocBin files or review CSVs.")
    if not config_path.is_file():
        fail(f"The config {config_path} does not exist (pass --config).")
    try:
        config = load_config(config_path, overrides=parse_config_overrides(overrides), interpolate=True)
    except (ConfigValidationError, ValueError) as err:
        fail(f"Cannot read {config_path}: {err}")
    try:
        settings = CharLMSettings.from_config(config)
    except ValueError as err:
        fail(f"{config_path}: {err}")
    try:
        settings.check()
        text = collect_pretraining_text(corpora, settings.heldout_share, exclude)
        msg.info(
            f"{len(text.train):,} training and {len(text.heldout):,} held-out texts, "
            f"{text.n_characters:,} characters, from {len(corpora)} corpora"
        )
        metrics = pretrain_charlm(text, output, settings, resume=resume, progress=sys.stderr.isatty(),
                                  max_minutes=max_minutes)
    except (ValueError, ImportError, OSError) as err:
        fail(str(err))
    msg.good(
        f"Saved {output / 'model'}: {metrics['steps']:,} steps, masked-LM accuracy "
        f"{metrics['heldout_masked_lm_accuracy']:.4f} on {metrics['heldout_masked_tokens']:,} held-out tokens"
    )
