"""Where a command that makes a pipeline from another (adapt, export-onnx) may write it.

The output folder is new, or (with --force) an earlier output pipeline that
is deleted whole before the new one is written, so no file of it is left
beside the new one. The source pipeline is never written to: the output may
not be it, lie inside it or hold it, even with --force.
"""
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from spacy.language import Language

from .errors import fail, writing_folder


def source_folder(nlp: Language) -> Optional[Path]:
    """The folder ``nlp`` was loaded from (for an installed package, its data folder), resolved;
    None if it was not loaded from one."""
    path = getattr(nlp, "_path", None)  # set by spacy.load
    return Path(path).resolve() if path else None


def check_pipeline_output(output: Path, force: bool, source: Optional[Path]) -> None:
    """Fail (exit 1, naming what to do) for an output that is, holds or lies
    inside the ``source`` pipeline folder (even with --force), that is a file,
    that exists (without --force), or that is a folder but not a pipeline (no
    config.cfg; even with --force: it would be deleted)."""
    resolved = output.resolve()
    if source is not None and (resolved == source or source in resolved.parents or resolved in source.parents):
        fail(f"The output {output} is, holds or lies inside the source pipeline {source}: nothing is written there.")
    if not output.exists():
        return
    if not output.is_dir():
        fail(f"The output {output} is a file, not a pipeline folder: choose another output or remove the file.")
    if not force:
        fail(f"The output {output} exists: pass --force to overwrite it.")
    if any(output.iterdir()) and not (output / "config.cfg").is_file():
        fail(f"The output {output} is a folder but not a pipeline (no config.cfg): it is not deleted; choose another.")


@contextmanager
def replacing_folder(output: Path) -> Iterator[None]:
    """Delete ``output`` if it exists (a pipeline folder check_pipeline_output
    let through) and make it anew for the block to write the pipeline into;
    an OSError in the block fails naming the folder (errors.writing_folder)."""
    if output.exists():
        shutil.rmtree(output)
    with writing_folder(output):
        yield
