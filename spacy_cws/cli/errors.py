"""How every command reports bad input: a message on stderr, exit code 1.

stdout carries a command's data or report (``segment`` and ``score`` write
results there), so an error never goes to stdout, where it could be mistaken
for, or mixed into, the output. Warnings (input read, but maybe not as meant)
go to stderr too, one line each. Usage errors that typer finds (an unknown
option, a missing argument) exit with code 2, as in every click program.
"""
import shutil
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NoReturn, Type

import typer


def fail(message: str) -> NoReturn:
    """Print ``✘ message`` on stderr and exit with code 1 (typer.Exit)."""
    typer.echo(f"✘ {message}", err=True)
    raise typer.Exit(1)


def warn(message: str) -> None:
    """Print ``⚠ message`` on stderr; the command goes on."""
    typer.echo(f"⚠ {message}", err=True)


@contextmanager
def warnings_on_stderr(category: Type[Warning]) -> Iterator[None]:
    """Print each warning raised inside the block (every one of ``category``,
    e.g. a UserDictionaryWarning naming a file and line; others as the
    warning filters allow) as one ``⚠`` line on stderr, without Python's
    source line, once the block ends."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", category)
        try:
            yield
        finally:
            for warning in caught:
                warn(str(warning.message))


def require_output_folder(path: Path) -> None:
    """Fail unless ``path`` is a folder or missing (it is made when written)."""
    if path.exists() and not path.is_dir():
        fail(f"The output {path} is a file: pass a folder (it is created if missing).")


@contextmanager
def writing_folder(path: Path) -> Iterator[None]:
    """Make the folder ``path`` if missing, for the block to write into. When
    the block raises OSError (a full disk, no permission), fail naming the
    folder, and remove it if it was made here, so nothing half-written is left."""
    made = not path.exists()
    try:
        path.mkdir(parents=True, exist_ok=True)
        yield
    except OSError as err:
        if made:
            shutil.rmtree(path, ignore_errors=True)
        fail(f"Cannot write {path}: {err.strerror or err}")


def require_file(path: Path, what: str) -> None:
    """Fail unless ``path`` can be read as a file (a file, or a pipe such as
    /dev/fd/63); the message says whether it is missing or a folder.
    what: how the command calls it, e.g. "Input file"."""
    if path.is_dir():
        fail(f"{what} is a folder, not a file: {path}")
    if not path.exists():
        fail(f"{what} not found: {path}")
