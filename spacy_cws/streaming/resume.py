"""``segment --resume``: check where an interrupted run's output stopped.

The output has one line per input line, each ended by ``\\n`` or, after an
input line that ended so, ``\\r\\n`` (jsonl escapes every line separator
inside a record), so its complete lines are the first input lines' results;
the last line of an input that ends without a line end ends so in a finished
output too, and counts as cut short (it is segmented again).
Before anything is appended, each complete line is checked against its input
line: the output must be a prefix of this input's output in this format.
Only then is a line cut short by the interruption removed. Which pipeline
wrote the output, its lines cannot tell: run_record.py checks that.
"""
import json
from pathlib import Path
from typing import Iterator, Optional

from .lines import InputLine

CHUNK_BYTES = 1 << 20


class ResumeError(ValueError):
    """An existing output that is not a prefix of this input's output in this format."""


def check_resumable(path: Path, records: Iterator[InputLine], output_format: str, tags: bool = False) -> int:
    """Check the complete lines of an interrupted run's output ``path``
    against the input, taking one record from ``records`` per complete line.
    RETURNS the number of complete lines (0 if ``path`` does not exist); the
    records after them are the ones left to segment. Memory: one line.

    output_format: "text" or "jsonl", as ``segment --format``.
    tags: whether the lines hold the words' tags (``word/TAG``, or jsonl's "tags").
    RAISES ResumeError naming the first output line that is not the output of
        its input line in ``output_format`` (other characters, another
        format, another line end), or when the output has more lines than the
        input; OSError when ``path`` cannot be read.
    """
    if not path.exists():
        return 0
    done = 0
    with open(path, "rb") as stream:
        for raw in stream:  # binary iteration splits on b"\n" only
            if not raw.endswith(b"\n"):
                break  # the line an interruption cut short
            record = next(records, None)
            if record is None:
                raise ResumeError(
                    f"Cannot resume: {path} has more complete lines than the input has lines ({done}), so it "
                    "is not this input's output. Pass the inputs of the interrupted run, or remove the file."
                )
            done += 1
            problem = output_line_problem(raw, record, output_format, tags)
            if problem is not None:
                raise ResumeError(
                    f"Cannot resume: line {done} of {path} is not the --format {output_format} output of "
                    f"input line {done} (counted over all inputs): {problem}. Pass the inputs and --format "
                    "of the interrupted run, or remove the file to start again."
                )
    return done


def output_line_problem(raw: bytes, record: InputLine, output_format: str, tags: bool = False) -> Optional[str]:
    """Why ``raw`` (one output line, with its line end) is not the output of
    ``record`` in ``output_format``; None when it is. A text line must hold
    the input's characters (whitespace aside; with ``tags``, each word
    followed by ``/TAG``), a jsonl line be a JSON object whose "text" is the
    input line (with ``tags``, and that has "tags"), and the line end be the input's."""
    end = "\r\n" if raw.endswith(b"\r\n") else "\n"
    if end != record.end:
        return f"it ends with {end!r}, the input line with {repr(record.end) if record.end else 'none'}"
    try:
        body = raw[: -len(end)].decode("utf-8")
    except UnicodeDecodeError:
        return "it is not UTF-8"
    if output_format == "jsonl":
        try:
            fields = json.loads(body)
            text, tagged = fields.get("text"), "tags" in fields
        except (ValueError, AttributeError):
            text = tagged = None
        if text != record.text:
            return 'it is not a JSON object whose "text" is the input line'
        return None if tagged == tags else f'it {"lacks" if tags else "has"} the words\' "tags"'
    items = body.split()
    if tags:
        if not all("/" in item for item in items):
            return "its words are not all word/TAG"
        items = [item.rsplit("/", 1)[0] for item in items]
    if "".join(items) != "".join(record.text.split()):
        return "its words are not the input line's characters"
    return None


def cut_incomplete_line(path: Path) -> None:
    """Remove an incomplete last line (one without ``\\n``) from ``path``, if any.
    Memory: one chunk (CHUNK_BYTES), whatever the file's size.

    RAISES OSError when the file cannot be read or truncated.
    """
    end = offset = 0
    with open(path, "r+b") as stream:
        while chunk := stream.read(CHUNK_BYTES):
            if b"\n" in chunk:
                end = offset + chunk.rindex(b"\n") + 1
            offset += len(chunk)
        if end < offset:
            stream.truncate(end)
