"""``python -m spacy_cws half-precision PIPELINE OUTPUT``: save a pipeline with float16 weights."""
from pathlib import Path

import spacy
import srsly
import typer
from spacy.language import Language
from wasabi import msg

from . import app
from ..backends.choice import require_torch
from .errors import fail


def halve_torch_weights(nlp: Language) -> int:
    """Cast every floating-point torch parameter and buffer of ``nlp``'s
    components to float16, in place, so ``nlp.to_disk`` writes half the bytes.

    Loading casts the weights back to the dtype of the modules a pipeline
    builds (float32; nets/module_weights.py), so inference runs in float32.
    The halved ``nlp`` itself is for saving only.
    RETURNS: the number of values cast.
    RAISES ImportError: without torch, naming the train extra.
    """
    require_torch("Casting a pipeline's weights to float16")
    from ..training.torch_modules import named_torch_modules

    cast = 0
    for _, module in named_torch_modules(nlp):
        cast += sum(t.numel() for t in module.state_dict().values() if t.is_floating_point())
        module.half()
    return cast


# Components that keep everything they need in their own files, none of it
# in the vocabulary's strings.
OWN_STRINGS_ONLY = {"gd_segmenter"}


def check_strings_unused(nlp: Language) -> None:
    """RAISES ValueError: if a component of ``nlp`` may need the vocabulary's strings."""
    others = [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory not in OWN_STRINGS_ONLY]
    if others:
        raise ValueError(
            f"Only a pipeline of {sorted(OWN_STRINGS_ONLY)} can drop its strings; {others} may need them: "
            "leave out --drop-strings"
        )


def drop_strings(output: Path) -> None:
    """Empty the string store saved at ``output`` (``nlp.to_disk``'s folder;
    check_strings_unused first).

    ``spacy train`` leaves the string of every training token in the
    vocabulary; a segmenter needs none of them, and a Doc adds the strings
    of its own tokens.
    spaCy's StringStore cannot be emptied in place, so the saved list is
    (vocab/strings.json, spaCy's format).
    """
    srsly.write_json(output / "vocab" / "strings.json", [])


@app.command("half-precision")
def half_precision_cli(
    pipeline: str = typer.Argument(..., help="A trained pipeline (name or path)."),
    output: Path = typer.Argument(..., help="Folder for the copy with float16 weights."),
    strings: bool = typer.Option(
        True, "--keep-strings/--drop-strings", help="--drop-strings: save no vocabulary strings (segmenter pipelines)."
    ),
):
    """Save a copy of a pipeline with float16 torch weights.

    Save a copy of PIPELINE whose torch weights are stored as float16 (half
    the size on disk; loaded back as float32), with --drop-strings also
    without the training tokens' strings, which a segmenter never reads.
    Evaluate the copy: the shipped zh_cws_gd is measured in this form."""
    try:
        nlp = spacy.load(pipeline)
        if not strings:
            check_strings_unused(nlp)
        cast = halve_torch_weights(nlp)
    except (OSError, ValueError, ImportError) as err:
        fail(str(err))
    if not cast:
        fail(f"{pipeline} has no torch weights to cast")
    nlp.to_disk(output)
    msg.good(f"Saved {output}: {cast:,} weights as float16")
    if not strings:
        drop_strings(output)
        msg.good(f"Dropped {len(nlp.vocab.strings):,} vocabulary strings")
