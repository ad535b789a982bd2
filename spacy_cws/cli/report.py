"""``python -m spacy_cws report GOLD SYSTEM... --train-words W -o DIR``: an HTML error report."""
from pathlib import Path
from typing import List, Optional

import typer

from ..scoring.error_analysis import analyse_files
from . import app
from .errors import fail, require_file, require_output_folder, writing_folder

REPORT_PAGE = "index.html"


@app.command("report")
def report_cli(
    gold_file: Path = typer.Argument(..., help="Gold segmentation: one sentence per line, words separated by spaces."),
    system_files: List[Path] = typer.Argument(
        ..., help="One or more system segmentations, line-aligned with GOLD_FILE."
    ),
    train_words: Path = typer.Option(
        ..., "--train-words", help="Training word list, one word per line (decides which gold words are OOV)."
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Folder to write index.html and the PNG plots into."),
    names: Optional[List[str]] = typer.Option(
        None, "--name", "-n", help="A system's name in the report, once per SYSTEM_FILE in order (default: file names)."
    ),
):
    """Write an HTML report comparing systems' segmentations of a gold file.

    Write an HTML report comparing SYSTEM_FILES on GOLD_FILE, with PNG plots
    (matplotlib): the official SIGHAN measures (as `score`), F1 by sentence
    length, OOV and IV recall, recall by word length, split and merge error
    counts and the 50 most frequent errors with examples in context. Words are
    matched as the official scorer matches them."""
    try:
        from ..scoring.report_plots import write_plots
        from ..scoring.report_html import render_report
    except ImportError:
        fail('The report needs matplotlib: pip install "spacy-cws[report]" (or pip install matplotlib).')
    for path, what in [(gold_file, "Gold file"), (train_words, "Training word list")] + [
        (path, "System file") for path in system_files
    ]:
        require_file(path, what)
    names = names or [path.name for path in system_files]
    if len(names) != len(system_files):
        fail(f"{len(names)} --name options for {len(system_files)} system files: give one name per system file.")
    if len(set(names)) != len(names):
        fail(f"System names must differ, got {', '.join(names)}: pass --name for each system file.")
    require_output_folder(output)
    try:
        analyses = analyse_files(gold_file, dict(zip(names, system_files)), train_words)
    except (FileNotFoundError, ValueError) as err:
        fail(str(err))
    with writing_folder(output):
        plots = write_plots(analyses, output)
        (output / REPORT_PAGE).write_text(render_report(analyses, plots, gold_file.name), encoding="utf-8")
    typer.echo(f"✔ Report written to {output / REPORT_PAGE}", err=True)
