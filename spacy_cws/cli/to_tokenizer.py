"""``python -m spacy_cws to-tokenizer PIPELINE OUTPUT``: the segmenter as the pipeline's tokenizer."""
from pathlib import Path

import spacy
import typer
from wasabi import msg

from ..segmenter.segmenter_tokenizer import segmenter_as_tokenizer
from . import app
from .errors import fail, require_output_folder, writing_folder


@app.command("to-tokenizer")
def to_tokenizer_cli(
    pipeline: str = typer.Argument(..., help="A trained pipeline with a gd_segmenter component (name or path)."),
    output: Path = typer.Argument(..., help="Folder for the new pipeline."),
    component: str = typer.Option("gd_segmenter", "--component", help="The segmenter component's name."),
):
    """Save a copy of a pipeline whose tokenizer runs its segmenter.

    Save a copy of PIPELINE whose tokenizer runs its trained segmenter and
    builds each Doc from words directly (no character Doc, no retokenizer)."""
    require_output_folder(output)
    try:
        nlp = spacy.load(pipeline)
        converted = segmenter_as_tokenizer(nlp, component)
    except (OSError, ValueError) as err:
        fail(str(err))
    with writing_folder(output):
        converted.to_disk(output)
    msg.good(f"Saved {output}: tokenizer = {component} of {pipeline}; components: {converted.pipe_names}")
