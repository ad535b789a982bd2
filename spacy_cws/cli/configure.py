"""``python -m spacy_cws configure PIPELINE OUTPUT``: save a copy of a pipeline with other inference settings."""
from pathlib import Path
from typing import Optional

import spacy
import typer
from wasabi import msg

from ..segmenter.default_criterion import set_default_criterion
from ..segmenter.moved_settings import upgrade_config
from . import app
from .errors import fail


@app.command("configure")
def configure_cli(
    pipeline: str = typer.Argument(..., help="A trained segmentation pipeline (name or path)."),
    output: Path = typer.Argument(..., help="Folder for the reconfigured copy."),
    criterion: Optional[str] = typer.Option(
        None, "--criterion", "-c", help="Default criterion (multi-criteria pipelines)."
    ),
    opencc: Optional[str] = typer.Option(
        None,
        "--opencc",
        help="OpenCC configuration for the model's view of the text, e.g. t2s for Traditional input; "
        "'none' to switch it off.",
    ),
    component: str = typer.Option("gd_segmenter", "--component", help="The segmenter component's name."),
):
    """Save a pipeline with a new default criterion or OpenCC conversion.

    Save PIPELINE with a new default criterion and/or OpenCC conversion of
    the model's input (the output words are always the input's own
    characters). The weights are unchanged; the settings go into config.cfg,
    so `spacy.load(OUTPUT)` uses them. The copy's config is brought up to
    date: without the settings that left the component's block (the
    component saves its training settings itself) and with today's unbroken
    patterns, so a pipeline of spacy-cws 0.5.1 or earlier loads without
    DeprecationWarnings (and on torch predicts in float32)."""
    settings = {}
    if opencc is not None:
        settings["opencc"] = None if opencc == "none" else opencc
    if criterion is not None:
        settings["criterion"] = criterion
    try:
        nlp = spacy.load(pipeline, config={"components": {component: settings}} if settings else {})
        if criterion is not None:
            set_default_criterion(nlp, criterion)  # fails, listing the known ones, if unknown
        upgrade_config(nlp.get_pipe_config(component), nlp.get_pipe(component).cfg["unbroken_patterns"])
    except (OSError, KeyError, ValueError) as err:
        fail(str(err))
    nlp.to_disk(output)
    saved = spacy.load(output).get_pipe(component).cfg
    msg.good(f"Saved {output}: criterion {saved['criterion']}, opencc {saved['opencc']}")
