"""``python -m spacy_cws average-weights PIPELINE CHECKPOINTS OUTPUT``: checkpoint averaging."""
from pathlib import Path

import spacy
import typer
from wasabi import msg

from ..backends.choice import require_torch
from . import app
from .errors import fail


@app.command("average-weights")
def average_weights_cli(
    pipeline: str = typer.Argument(
        ..., help="The trained pipeline whose checkpoints these are (e.g. training/X/model-last)."
    ),
    checkpoints: Path = typer.Argument(
        ..., help="Folder of step-NNNNNN.pt files written by the spacy-cws.save_weights.v1 callback."
    ),
    output: Path = typer.Argument(..., help="Folder for the pipeline with the averaged weights."),
    last: int = typer.Option(0, "--last", help="Average only the last N checkpoints (0: all)."),
    first_step: int = typer.Option(0, "--from-step", help="Average only checkpoints from this step on."),
):
    """Save PIPELINE with the mean weights of its training checkpoints.

    Checkpoint averaging (Vaswani et al. 2017): the weights saved every few
    steps near the end of training are averaged; evaluate the result on dev
    against model-best before using it."""
    try:
        require_torch("average-weights")
    except ImportError as err:
        fail(str(err))
    from ..training.weight_checkpoints import average_weights, checkpoint_step, list_checkpoints

    try:
        paths = [path for path in list_checkpoints(checkpoints) if checkpoint_step(path) >= first_step]
    except FileNotFoundError as err:
        fail(str(err))
    if last < 0:
        fail(f"--last must be >= 0, got {last}")
    if last:
        paths = paths[-last:]
    if not paths:
        fail(f"no checkpoint in {checkpoints} from step {first_step} on")
    try:
        nlp = spacy.load(pipeline)
        average_weights(nlp, paths)
    except (OSError, ValueError) as err:
        fail(str(err))
    nlp.to_disk(output)
    steps = ", ".join(str(checkpoint_step(path)) for path in paths)
    msg.good(f"Saved {output}: the mean of {len(paths)} checkpoints (steps {steps})")
