"""How every command reports bad input: a message on stderr, exit code 1.

stdout carries a command's data or report (``segment`` and ``score`` write
results there), so an error never goes to stdout, where it could be mistaken
for, or mixed into, the output.
"""
from pathlib import Path
from typing import NoReturn

import typer


def fail(message: str) -> NoReturn:
    """Print ``✘ message`` on stderr and exit with code 1 (typer.Exit)."""
    typer.echo(f"✘ {message}", err=True)
    raise typer.Exit(1)


def require_file(path: Path, what: str) -> None:
    """Fail unless ``path`` is a file; the message says whether it is missing
    or a folder. what: how the command calls it, e.g. "Input file"."""
    if path.is_dir():
        fail(f"{what} is a folder, not a file: {path}")
    if not path.is_file():
        fail(f"{what} not found: {path}")
