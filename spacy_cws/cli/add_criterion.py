"""``python -m spacy_cws add-criterion PIPELINE OUTPUT NAME``: ready a
multi-criteria pipeline to learn a new criterion."""

from pathlib import Path

import spacy
import typer
from thinc.api import Config
from wasabi import msg

from ..segmenter.moved_settings import upgrade_config
from . import app
from .errors import fail


@app.command("add-criterion")
def add_criterion_cli(
    pipeline: str = typer.Argument(..., help="A trained multi-criteria pipeline (name or path)."),
    output: Path = typer.Argument(..., help="Folder for the pipeline with the new criterion."),
    criterion: str = typer.Argument(..., help="The new criterion's name: the criterion of its training Docs, e.g. zx."),
    component: str = typer.Option("gd_segmenter", "--component", help="The segmenter component's name."),
):
    """Add a new criterion to a multi-criteria segmenter, to train it alone.

    Add a criterion embedding to a multi-criteria segmenter and save the
    pipeline set to train the criterion embeddings alone (train_criteria_only,
    saved with the component) and with the new criterion as the default
    (Qiu et al. 2020, Figure 5): `spacy train` with this component
    sourced from OUTPUT then learns only the criterion embeddings from the new
    corpus, everything else frozen."""
    try:
        nlp = spacy.load(pipeline)
        segmenter = nlp.get_pipe(component)
        segmenter.add_criterion(criterion, train_criteria_only=True)
    except (OSError, KeyError, ValueError) as err:
        fail(str(err))
    # An earlier config's train_criteria_only = false would win over the saved switch.
    upgrade_config(nlp.get_pipe_config(component), segmenter.cfg["unbroken_patterns"])
    nlp.to_disk(output)
    # The default criterion is an inference setting: it goes into config.cfg.
    config = Config().from_disk(output / "config.cfg", interpolate=False)
    config["components"][component]["criterion"] = criterion
    config.to_disk(output / "config.cfg", interpolate=False)
    msg.good(
        f"Saved {output}: criteria {nlp.get_pipe(component).criteria}; train with "
        f"[components.{component}] source = \"{output}\" (see configs/transfer_criterion.cfg)"
    )
