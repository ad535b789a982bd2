"""``python -m spacy_cws segment [FILE ...]``: segment UTF-8 text, one line at a time.

Input lines end at ``\\n`` or ``\\r\\n`` only: ``str.splitlines`` would also
split at a lone ``\\r``, U+2028, U+0085, U+001C etc., which can occur inside a
sentence; like ``\\v`` and ``\\f``, they stay in the line as whitespace.
A UTF-8 byte order mark at the start of a file is dropped: it marks the
encoding, it is not text, and if kept it would be glued to the first word.

Formats (one output line per input line, lines end with ``\\n``):

- ``text``: the line's words separated by one space; input whitespace is
  never a word, so an empty or whitespace-only line gives an empty line.
- ``jsonl``: ``{"text": line, "words": [...], "offsets": [[start, end], ...]}``.
  ``words`` are the non-whitespace words only and ``line[start:end] == word``;
  what lies between them (and before the first, after the last) is the
  input's whitespace, so ``text`` is rebuilt exactly from words and offsets.
"""
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import BinaryIO, Callable, Dict, Iterable, Iterator, List, Optional

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc
from tqdm import tqdm

from ..segmenter.default_criterion import set_default_criterion
from ..segmenter.user_dictionary_setup import add_user_dictionary
from ..segmenter.segmenter_tokenizer import SegmenterTokenizer
from . import app
from .errors import fail

STDIN = "-"
BOM = b"\xef\xbb\xbf"
# Total input size (bytes) above which a progress bar is shown.
PROGRESS_MIN_BYTES = 1_000_000


class UserDictionaryMode(str, Enum):
    force = "force"
    prefer = "prefer"


class OutputFormat(str, Enum):
    text = "text"
    jsonl = "jsonl"


class InputError(Exception):
    """An input that cannot be read or segmented; the message names the file (and line)."""


def read_lines(stream: BinaryIO, name: str, progress: tqdm, max_length: int) -> Iterator[str]:
    """Yield the lines of a UTF-8 byte stream, without line ends, one at a time.

    Lines end at b"\\n" or b"\\r\\n" (a lone b"\\r" is text); a BOM at the start is dropped.
    progress: updated with the bytes read.
    max_length: the longest line allowed (the pipeline's ``nlp.max_length``).
    RAISES InputError: naming ``name`` and the 1-based line number, if a line is
        not valid UTF-8 or is longer than max_length.
    """
    for number, raw in enumerate(stream, start=1):  # binary iteration splits on b"\n" only
        progress.update(len(raw))
        body = raw.removesuffix(b"\n").removesuffix(b"\r") if raw.endswith(b"\n") else raw
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
                f"{name}, line {number}: {len(line):,} characters, more than the pipeline's "
                f"max_length ({max_length:,}). Break the line into shorter lines."
            )
        yield line


def read_inputs(inputs: List[str], progress: tqdm, max_length: int) -> Iterator[str]:
    """Yield the lines of all inputs in order; ``-`` is standard input."""
    for name in inputs:
        if name == STDIN:
            yield from read_lines(sys.stdin.buffer, "<stdin>", progress, max_length)
            continue
        try:
            stream = open(name, "rb")
        except OSError as err:
            raise InputError(f"Cannot read the input file {name}: {err.strerror}") from None
        with stream:
            yield from read_lines(stream, name, progress, max_length)


def load_pipeline(model: str) -> Language:
    """Load a pipeline, or fail saying how to get one."""
    try:
        return spacy.load(model)
    # Loading runs the package's code and config: any failure means "no usable model".
    except Exception as err:  # noqa: BLE001
        fail(
            f"Cannot load the pipeline '{model}': {err}\n"
            "Pass --model with the name of an installed pipeline package or the path of a "
            "trained pipeline. To get one: train and package it with `python -m spacy project "
            "run all` (see README.md), then pass --model training/CORPUS-CONFIG/model-best "
            "or `pip install` the wheel it writes under packages/ (zh_cws_gd)."
        )


def segment_docs(nlp: Language, texts: Iterable[str], batch_size: int) -> Iterator[Doc]:
    """Docs of ``texts``, lazily, in batches of ``batch_size`` texts."""
    if isinstance(nlp.tokenizer, SegmenterTokenizer) and not nlp.pipeline:
        # The tokenizer does all the work: its pipe segments a whole batch at once
        # (nlp.pipe would call it text by text).
        return nlp.tokenizer.pipe(texts, batch_size=batch_size)
    return nlp.pipe(texts, batch_size=batch_size)


def format_text(doc: Doc) -> str:
    """The Doc's words separated by one space, as one output line."""
    return " ".join(token.text for token in doc if not token.is_space) + "\n"


def format_jsonl(doc: Doc) -> str:
    """The Doc's text, words and their [start, end) character offsets, as one JSON line."""
    words = [token for token in doc if not token.is_space]
    record = {
        "text": doc.text,
        "words": [token.text for token in words],
        "offsets": [[token.idx, token.idx + len(token)] for token in words],
    }
    # Chinese stays readable (ensure_ascii=False). json.dumps escapes control
    # characters but not U+0085, U+2028, U+2029, which str.splitlines and some
    # JSON-lines readers take for line ends: escaped, every reader finds one record a line.
    line = json.dumps(record, ensure_ascii=False)
    for separator in "\x85\u2028\u2029":
        line = line.replace(separator, f"\\u{ord(separator):04x}")
    return line + "\n"


FORMATTERS: Dict[OutputFormat, Callable[[Doc], str]] = {
    OutputFormat.text: format_text,
    OutputFormat.jsonl: format_jsonl,
}


@app.command("segment")
def segment_cli(
    files: Optional[List[str]] = typer.Argument(
        None, help="UTF-8 text files, one text a line. None, or '-', reads standard input.", show_default=False
    ),
    model: str = typer.Option(
        "zh_cws_gd", "--model", "-m", help="Pipeline name or path (with gd_segmenter, or a SegmenterTokenizer)."
    ),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write instead of standard output."),
    output_format: OutputFormat = typer.Option(
        OutputFormat.text, "--format", "-f", help="text: words separated by spaces; jsonl: text, words and offsets."
    ),
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    criterion: Optional[str] = typer.Option(
        None, "--criterion", "-c", help="Segmentation criterion (multi-criteria pipelines), e.g. ctb6 or sxu."
    ),
    user_dict: Optional[Path] = typer.Option(
        None, "--user-dict", help="User dictionary, one 'word [freq] [POS]' a line (jieba/pkuseg format)."
    ),
    user_dict_mode: UserDictionaryMode = typer.Option(
        UserDictionaryMode.force, "--user-dict-mode", help="force: each dictionary word is one word; prefer: a lexicon hint."
    ),
):
    """Segment text into words, one output line per input line.

    The input is streamed in batches and the output written as it goes. A
    progress bar (bytes read, on stderr) is shown when the input files hold
    over 1 MB; never for standard input, whose size is unknown.
    """
    inputs = files or [STDIN]
    for name in inputs:
        # exists(), not is_file(): /dev/stdin and named pipes are inputs too.
        if name != STDIN and not Path(name).exists():
            fail(f"Input file not found: {name}")
    if output is not None and any(name != STDIN and Path(name).resolve() == output.resolve() for name in inputs):
        fail(f"The output {output} is also an input: it would be overwritten while it is read.")
    nlp = load_pipeline(model)
    if criterion is not None:
        try:
            set_default_criterion(nlp, criterion)
        except ValueError as err:
            fail(str(err))
    if user_dict is not None:
        try:
            add_user_dictionary(nlp, user_dict, user_dict_mode.value)
        except (OSError, ValueError) as err:
            fail(str(err))
    total = None if STDIN in inputs else sum(Path(name).stat().st_size for name in inputs)
    formatter = FORMATTERS[output_format]
    if output is None:
        sink = sys.stdout.buffer
    else:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            sink = open(output, "wb")
        except OSError as err:
            fail(f"Cannot write the output file {output}: {err.strerror}")
    progress = tqdm(
        total=total, unit="B", unit_scale=True, desc="segment", disable=not total or total <= PROGRESS_MIN_BYTES
    )
    try:
        for doc in segment_docs(nlp, read_inputs(inputs, progress, nlp.max_length), batch_size):
            sink.write(formatter(doc).encode("utf-8"))
        sink.flush()
    except InputError as err:
        fail(str(err))
    except BrokenPipeError:
        # The reader stopped early (e.g. `| head`): exit quietly, and point stdout at
        # devnull so that the interpreter's final flush raises no second error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(1)
    finally:
        progress.close()
        if output is not None:
            sink.close()
