"""``python -m spacy_cws convert``: segmented corpus file -> spaCy DocBin files."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..corpora.convert import ConversionReport, convert_corpus
from ..corpora.formats import FORMATS
from . import app
from .errors import fail, require_file


@app.command("convert")
def convert_cli(
    input_path: Path = typer.Argument(
        ..., help="Segmented corpus file: one sentence per line, words separated by whitespace."
    ),
    output_path: Path = typer.Argument(..., help="DocBin (.spacy) file for the training sentences."),
    fmt: str = typer.Option(
        "sighan",
        "--format",
        "-f",
        help="sighan (SIGHAN, CTB6 .seg, SXU), wordpos (ZX word_POS), pfr (People's Daily 1998: GBK, word/TAG) "
        "or bies (a character and its B/I/E/S tag a line, a blank line after each sentence).",
    ),
    criterion: Optional[str] = typer.Option(
        None,
        "--criterion",
        "-c",
        help="Segmentation criterion stored in doc._.cws_criterion, e.g. ctb6. "
        "Default: the input file's stem (its name without the last suffix).",
    ),
    dev_output: Optional[Path] = typer.Option(
        None, "--dev-output", help="DocBin for the LAST --dev-fraction of the sentences."
    ),
    dev_fraction: float = typer.Option(
        0.1, "--dev-fraction", help="Share of sentences for --dev-output (rounded up)."
    ),
    words_output: Optional[Path] = typer.Option(
        None,
        "--words-output",
        help="Training word list for the SIGHAN scorer: the sorted unique words of OUTPUT_PATH.",
    ),
):
    """Convert a word-segmented corpus to DocBin files.

    Convert a word-segmented corpus to DocBin files: one Doc per sentence,
    its text the words joined without spaces, its tokens the gold words."""
    require_file(input_path, "Input file")
    if fmt not in FORMATS:
        fail(f"Unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if criterion is None:
        criterion = input_path.stem
        msg.info(f"No --criterion given: using the input file's stem, {criterion!r}")
    try:
        report = convert_corpus(
            input_path,
            output_path,
            fmt=fmt,
            criterion=criterion,
            dev_output=dev_output,
            dev_fraction=dev_fraction,
            words_output=words_output,
        )
    except ValueError as err:  # includes CorpusFormatError, which names file and line
        fail(str(err))
    print_report(report)


def print_report(report: ConversionReport) -> None:
    """Print what a conversion wrote: sentences, words and characters per file."""
    msg.good(f"Converted {report.input_path} (criterion {report.criterion!r})")
    rows = [(str(o.path), f"{o.sentences:,}", f"{o.words:,}", f"{o.chars:,}") for o in report.outputs]
    msg.table(rows, header=("file", "sentences", "words", "chars"), aligns=("l", "r", "r", "r"))
    msg.info(f"Skipped {report.blank_lines:,} blank line(s) of {report.lines:,}")
    if report.words_output is not None:
        msg.good(f"Wrote {report.word_types:,} word types to {report.words_output}")
