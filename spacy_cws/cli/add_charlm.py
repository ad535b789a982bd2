"""``python -m spacy_cws add-charlm PIPELINE LM OUTPUT``: ready a trained GD
segmenter to train on with the character LM's features."""

from pathlib import Path

import spacy
import typer
from wasabi import msg

from ..segmenter.charlm_addition import add_charlm
from . import app
from .errors import fail


@app.command("add-charlm")
def add_charlm_cli(
    pipeline: str = typer.Argument(..., help="A trained pipeline whose GD segmenter runs on torch (name or path)."),
    lm: Path = typer.Argument(..., help="A character LM folder (pretrain-charlm writes training/charlm/model)."),
    output: Path = typer.Argument(..., help="Folder for the pipeline with the LM's features."),
    layers: int = typer.Option(1, "--layers", help="How many of the LM's last layers are averaged (1: the top one)."),
    component: str = typer.Option("gd_segmenter", "--component", help="The segmenter component's name."),
):
    """Add the character LM's features to a trained GD segmenter, to train on.

    The LM's vectors (frozen) are added to each character's input through a
    projection that starts at zero, so OUTPUT segments exactly as PIPELINE
    until trained (Gan & Zhang 2020 section 4.1). `spacy train` with this
    component sourced from OUTPUT then trains it on with the features
    (configs/cpu_teacher_charlm.cfg). The LM folder must stay where it is:
    OUTPUT's config names it. Needs the train and charlm extras."""
    try:
        nlp = spacy.load(pipeline)
        segmenter = nlp.get_pipe(component)
        max_length = add_charlm(segmenter, lm, layers, nlp.get_pipe_config(component))
    except (OSError, KeyError, ValueError, ImportError) as err:
        fail(str(err))
    nlp.to_disk(output)
    msg.good(
        f"Saved {output}: '{component}' reads the character LM {lm} (max_length {max_length}); train it with "
        f"[components.{component}] source = \"{output}\" (see configs/cpu_teacher_charlm.cfg)"
    )
