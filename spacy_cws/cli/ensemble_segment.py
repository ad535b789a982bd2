"""``python -m spacy_cws ensemble-segment PIPELINES INPUT --output FILE``: several
pipelines segmenting as one, their gap probabilities averaged (distillation/ensemble.py).

A command of its own rather than ``segment -m A,B``: every path of ``segment``
(its run record and --resume, the forked processes and Ray engines, --tags,
--user-dict) holds one pipeline; the ensemble needs none of them to be
scored on a test set or to show what a teacher ensemble does.
"""
from pathlib import Path
from typing import Optional

import typer

from ..distillation.ensemble import load_ensemble, pipeline_names
from ..streaming.formats import FORMATTERS, LineFormat, format_jsonl_probs
from ..streaming.lines import InputError, read_inputs
from ..streaming.output import OutputError, open_output, write_lines
from ..streaming.segmentation import output_lines
from . import app
from .errors import fail, warn
from .segment import CRITERION_OPTION, MAX_LINE_CHARS_OPTION


@app.command("ensemble-segment")
def ensemble_segment_cli(
    pipelines: str = typer.Argument(
        ..., help="Pipelines (names or paths) joined by commas, e.g. zh_cws_gd,zh_cws_gd_sm; each with gd_segmenter."
    ),
    input_file: Path = typer.Argument(..., help="UTF-8 text, one text a line."),
    output: Path = typer.Option(..., "--output", "-o", help="File to write, one line per input line."),
    output_format: LineFormat = typer.Option(
        LineFormat.text, "--format", "-f", help="text: words separated by spaces; jsonl: text, words and offsets."
    ),
    probs: bool = typer.Option(
        False, "--probs", help='With --format jsonl: add "gap_probs", the mean of the pipelines\' doc._.gap_probs.'
    ),
    criterion: Optional[str] = CRITERION_OPTION,
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    max_line_chars: Optional[int] = MAX_LINE_CHARS_OPTION,
):
    """Segment text with an ensemble of pipelines: their gap probabilities averaged.

    Each pipeline segments every line; a gap between characters is a word
    boundary where the mean of their gap probabilities (doc._.gap_probs) is
    above 0.5, and what all of them keep whole (URLs, numbers, force-mode
    user words) stays whole. With one pipeline the words are its own. Score
    the output with `python -m spacy_cws score GOLD OUTPUT --train-words
    WORDS`. --criterion sets the criterion of every multi-criteria pipeline.
    Lines and line ends are kept as `segment` keeps them."""
    if probs and output_format != LineFormat.jsonl:
        fail("--probs writes jsonl: pass --format jsonl with it.")
    if not input_file.is_file():
        fail(f"Input file not found: {input_file}")
    if input_file.resolve() == output.resolve():
        fail(f"The output {output} is also the input: it would be overwritten while it is read.")
    try:
        ensemble = load_ensemble(pipeline_names(pipelines), criterion)
    except (OSError, ValueError) as err:
        fail(str(err))
    if max_line_chars is not None:
        for nlp in ensemble.pipelines:
            nlp.max_length = max_line_chars
    max_length = min(nlp.max_length for nlp in ensemble.pipelines)
    records = read_inputs([str(input_file)], None, max_length, LineFormat.text, warn)
    lines = output_lines(
        records,
        lambda texts: ensemble.segment(texts, batch_size=batch_size),
        format_jsonl_probs if probs else FORMATTERS[output_format],
    )
    try:
        with open_output(output, append=False) as sink:
            write_lines(sink, lines, f"the output file {output}")
    except (InputError, OutputError) as err:
        fail(str(err))
