"""``adapt PIPELINE RAW... --suggest N``: the raw lines a person should segment, pre-segmented."""
import sys
from pathlib import Path
from typing import Optional, Sequence

from wasabi import msg

from .errors import fail


def write_suggestions(nlp, texts: Sequence[str], n: int, output: Optional[Path], progress: bool) -> None:
    """Write ``n`` texts to correct (adaptation/suggest.py), words
    separated by spaces, one a line, in the order chosen, to ``output``
    (None: stdout). Fails (exit 1) for a pipeline without gd_segmenter or
    an output that cannot be written."""
    from ..adaptation.suggest import suggest_lines
    from ..segmenter.pipeline_segmenters import segmenter_component

    try:
        _, segmenter = segmenter_component(nlp)
        suggestions = suggest_lines(segmenter, texts, n, progress)
    except ValueError as err:
        fail(str(err))
    lines = "".join(" ".join(suggestion.words) + "\n" for suggestion in suggestions)
    if output is None:
        sys.stdout.write(lines)
        return
    if output.is_dir():
        fail(f"The output {output} is a folder: --suggest writes a file")
    try:
        output.write_text(lines, encoding="utf-8")
    except OSError as err:
        fail(f"Cannot write {output}: {err.strerror or err}")
    msg.good(
        f"Wrote {len(suggestions):,} lines to {output}: correct their spaces, "
        "then pass the file as --gold"
    )
