"""Reading a segmenting run's input: UTF-8 text, one document a line.

Input lines end at ``\\n`` or ``\\r\\n`` only: ``str.splitlines`` would also
split at a lone ``\\r``, U+2028, U+0085, U+001C etc., which can occur inside a
sentence; like ``\\v`` and ``\\f``, they stay in the line as whitespace. A
lone ``\\r`` is said once per input (``warn``): a file with old Mac line ends
(``\\r`` alone) would otherwise read silently as one line.
A UTF-8 byte order mark at the start of a file is dropped: it marks the
encoding, it is not text, and if kept it would be glued to the first word.
Each document keeps the line end its output line gets: ``\\r\\n`` after a
line that ended with ``\\r\\n``, ``\\n`` after one that ended with ``\\n``,
and none after the last line of the input if it has none, so that the output
ends as the input does; a file's last line without a line end that another
input follows gets ``\\n`` (ended_but_last), so each input line stays one
output line.
"""
import json
import sys
from typing import BinaryIO, Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple, TypeVar

from tqdm import tqdm

from .formats import LineFormat

STDIN = "-"
BOM = b"\xef\xbb\xbf"
# Says a warning about the input (e.g. on stderr); None: nothing is said.
Warn = Optional[Callable[[str], None]]
T = TypeVar("T")


class InputLine(NamedTuple):
    """One input document: its text, and the line end its output line gets
    ("\\r\\n" or "\\n" as the input line ended, "" after a last line without one)."""

    text: str
    end: str


class InputError(Exception):
    """An input that cannot be read or segmented; the message names the file (and line)."""


def split_line_end(raw: bytes) -> Tuple[bytes, str]:
    """A raw line (as binary iteration gives it) without its line end, and the
    line end its output gets: "\\r\\n" after b"\\r\\n", "\\n" after b"\\n", ""
    for a last line without one."""
    if raw.endswith(b"\r\n"):
        return raw[:-2], "\r\n"
    if raw.endswith(b"\n"):
        return raw[:-1], "\n"
    return raw, ""


def stream_input_lines(
    stream: BinaryIO, name: str, progress: Optional[tqdm], max_length: int, warn: Warn = None
) -> Iterator[InputLine]:
    """Yield the lines of a UTF-8 byte stream one at a time, each without its
    line end and with the line end its output gets (split_line_end): the
    segment CLI's input, streamed with progress and checked against max_length.

    Lines end at b"\\n" or b"\\r\\n"; a lone b"\\r" is text, said once to
    ``warn`` (lone_carriage_return). A BOM at the start is dropped.
    progress: updated with the bytes read (None: no progress).
    max_length: the longest line allowed (``--max-line-chars``, by default the
        pipeline's ``nlp.max_length``).
    RAISES InputError: naming ``name`` and the 1-based line number, if a line is
        not valid UTF-8 or is longer than max_length.
    """
    warned = False
    for number, raw in enumerate(stream, start=1):  # binary iteration splits on b"\n" only
        if progress is not None:
            progress.update(len(raw))
        body, end = split_line_end(raw)
        if number == 1 and body.startswith(BOM):
            body = body[len(BOM) :]
        try:
            line = body.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(
                f"{name}, line {number}: not valid UTF-8 ({err.reason} at byte {err.start + 1} "
                "of the line). Convert the file to UTF-8, e.g. with iconv."
            ) from None
        if len(line) > max_length:
            raise InputError(
                f"{name}, line {number}: {len(line):,} characters, more than --max-line-chars "
                f"({max_length:,}; by default the pipeline's max_length). Break the line into shorter "
                "lines, or pass a larger --max-line-chars (memory grows with the longest line)."
            )
        if not warned and "\r" in line and warn is not None:
            warn(lone_carriage_return(name, number))
            warned = True
        yield InputLine(line, end)


def lone_carriage_return(name: str, number: int) -> str:
    """The warning that a lone "\\r" stays inside its line."""
    return (
        f"{name}, line {number}: a carriage return (\\r) without \\n after it stays inside the line, as "
        "whitespace: segment ends lines at \\n and \\r\\n only (later ones in this input are not named). "
        "If the file has old Mac line ends (\\r alone), convert them first, e.g. with tr '\\r' '\\n'."
    )


def jsonl_text(line: str, name: str, number: int) -> str:
    """The "text" string of a JSON-lines record.

    RAISES InputError naming the file and 1-based line when the line is not a
        JSON object with a "text" string, or its text holds a lone surrogate
        (a "\\ud83d" escape without its pair), which is no character.
    """
    try:
        text = json.loads(line)["text"]
    except (ValueError, KeyError, TypeError):
        text = None
    if not isinstance(text, str):
        raise InputError(f'{name}, line {number}: not a JSON object with a "text" string.')
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(
            f'{name}, line {number}: the "text" holds the lone surrogate \\u{ord(text[err.start]):04x} '
            f"(character {err.start + 1}), half of a UTF-16 pair and no character. Fix the line: "
            "write the whole pair, or remove the escape."
        ) from None
    return text


def read_texts(
    stream: BinaryIO,
    name: str,
    progress: Optional[tqdm],
    max_length: int,
    input_format: LineFormat,
    warn: Warn = None,
) -> Iterator[InputLine]:
    """The documents of one input, in order, each with its line end: its lines
    (stream_input_lines), or with ``input_format`` jsonl the "text" field of
    each line's JSON object.
    RAISES InputError as stream_input_lines and jsonl_text do."""
    lines = stream_input_lines(stream, name, progress, max_length, warn)
    if input_format == LineFormat.text:
        return lines
    return (
        InputLine(jsonl_text(line.text, name, number), line.end) for number, line in enumerate(lines, start=1)
    )


def read_inputs(
    inputs: List[str], progress: tqdm, max_length: int, input_format: LineFormat, warn: Warn = None
) -> Iterator[InputLine]:
    """Yield the documents of all inputs in order; ``-`` (STDIN) is standard
    input. An input's last line without a line end gets "\\n" where another
    line follows (ended_but_last).
    RAISES InputError: naming a file that cannot be opened, or as read_texts."""
    return ended_but_last(_documents(inputs, progress, max_length, input_format, warn), _ended_record)


def _documents(
    inputs: List[str], progress: tqdm, max_length: int, input_format: LineFormat, warn: Warn
) -> Iterator[InputLine]:
    for name in inputs:
        if name == STDIN:
            yield from read_texts(sys.stdin.buffer, "<stdin>", progress, max_length, input_format, warn)
            continue
        try:
            stream = open(name, "rb")
        except OSError as err:
            raise InputError(f"Cannot read the input file {name}: {err.strerror}") from None
        with stream:
            yield from read_texts(stream, name, progress, max_length, input_format, warn)


def _ended_record(record: InputLine) -> InputLine:
    return record if record.end else record._replace(end="\n")


def ended_but_last(items: Iterable[T], ended: Callable[[T], T]) -> Iterator[T]:
    """The items in order, each but the last passed through ``ended``: the
    output line of a line without a line end (the last of an input) gets
    "\\n" when another line follows, and only the very last keeps none.
    One item is held back until the next arrives; when getting the next one
    raises, the held one is yielded (through ``ended``) before the error, so
    that no line before a bad one is lost.
    RAISES what iterating ``items`` raises."""
    iterator = iter(items)
    try:
        held = next(iterator)
    except StopIteration:
        return
    try:
        for item in iterator:
            yield ended(held)
            held = item
    except Exception:
        yield ended(held)
        raise
    yield held


def until_input_error(records: Iterator[InputLine], stopped: List[InputError]) -> Iterator[InputLine]:
    """The records up to the first that cannot be read, whose InputError is
    appended to ``stopped``: the lines before a bad line are still segmented
    and written, and the run can continue after it with --resume."""
    try:
        yield from records
    except InputError as err:
        stopped.append(err)
