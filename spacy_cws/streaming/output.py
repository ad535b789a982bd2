"""Writing a segmenting run's output lines, to standard output or a file, as they come."""
import sys
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator, Optional


class OutputError(Exception):
    """An output that cannot be written (a full disk, a file that takes no writes); the message names it."""


@contextmanager
def open_output(output: Optional[Path], append: bool) -> Iterator[BinaryIO]:
    """The sink to write to: standard output, or the file ``output`` (its
    folder made; appended to if ``append``, else emptied), closed at the end.

    RAISES OutputError naming ``output`` when it cannot be opened or closed
        (a close flushes the last bytes, e.g. onto a full disk).
    """
    if output is None:
        yield sys.stdout.buffer
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        sink = open(output, "ab" if append else "wb")
    except OSError as err:
        raise OutputError(f"Cannot write the output file {output}: {err.strerror}.") from None
    try:
        yield sink
    except BaseException:
        with suppress(OSError):  # the buffer's bytes fail again where a write failed
            sink.close()
        raise
    with writing(f"the output file {output}"):
        sink.close()


@contextmanager
def writing(name: str) -> Iterator[None]:
    """Turn an error writing to ``name`` (a full disk, a file that takes no
    writes) into OutputError naming it; a closed pipe stays BrokenPipeError."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(f"Cannot write {name}: {err.strerror}.") from None


def write_lines(sink: BinaryIO, lines: Iterable[str], name: str) -> None:
    """Write the lines (UTF-8) to ``sink`` and flush it.
    RAISES OutputError naming ``name`` when a write fails; BrokenPipeError
        when the reader of a pipe stopped."""
    for line in lines:
        with writing(name):
            sink.write(line.encode("utf-8"))
    with writing(name):
        sink.flush()
