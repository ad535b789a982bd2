"""``python -m spacy_cws half-precision PIPELINE OUTPUT``: save a pipeline with float16 weights."""
from pathlib import Path

import spacy
import typer
from spacy.language import Language
from wasabi import msg

from . import app
from ..training.torch_modules import named_torch_modules
from .errors import fail


def halve_torch_weights(nlp: Language) -> int:
    """Cast every floating-point torch parameter and buffer of ``nlp``'s
    components to float16, in place, so ``nlp.to_disk`` writes half the bytes.

    Loading casts the weights back: torch's ``load_state_dict`` copies them
    into the float32 modules a pipeline builds, so inference runs in float32.
    The halved ``nlp`` itself is for saving only.
    RETURNS: the number of values cast.
    """
    cast = 0
    for _, module in named_torch_modules(nlp):
        cast += sum(t.numel() for t in module.state_dict().values() if t.is_floating_point())
        module.half()
    return cast


@app.command("half-precision")
def half_precision_cli(
    pipeline: str = typer.Argument(..., help="A trained pipeline (name or path)."),
    output: Path = typer.Argument(..., help="Folder for the copy with float16 weights."),
):
    """Save a copy of a pipeline with float16 torch weights.

    Save a copy of PIPELINE whose torch weights are stored as float16 (half
    the size on disk; loaded back as float32). Evaluate the copy: the shipped
    zh_cws_gd is measured in this form."""
    try:
        nlp = spacy.load(pipeline)
    except (OSError, ValueError) as err:
        fail(str(err))
    cast = halve_torch_weights(nlp)
    if not cast:
        fail(f"{pipeline} has no torch weights to cast")
    nlp.to_disk(output)
    msg.good(f"Saved {output}: {cast:,} weights as float16")
