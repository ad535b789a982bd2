"""``python -m spacy_cws segment [FILE ...]``: segment UTF-8 text, one line at a time.

Input lines end at ``\\n`` or ``\\r\\n`` only: ``str.splitlines`` would also
split at a lone ``\\r``, U+2028, U+0085, U+001C etc., which can occur inside a
sentence; like ``\\v`` and ``\\f``, they stay in the line as whitespace. A
lone ``\\r`` is said once per input on stderr: a file with old Mac line ends
(``\\r`` alone) would otherwise read silently as one line.
A UTF-8 byte order mark at the start of a file is dropped: it marks the
encoding, it is not text, and if kept it would be glued to the first word.

Formats (one output line per input line, ending as its input line did:
``\\r\\n`` after a line that ended with ``\\r\\n``, else ``\\n``, also after a
last line without a line end):

- ``text``: the line's words separated by one space; input whitespace is
  never a word, so an empty or whitespace-only line gives an empty line.
- ``jsonl``: ``{"text": line, "words": [...], "offsets": [[start, end], ...]}``,
  ``line`` the input line without its line end.
  ``words`` are the non-whitespace words only and ``line[start:end] == word``;
  what lies between them (and before the first, after the last) is the
  input's whitespace, so ``text`` is rebuilt exactly from words and offsets.
"""
import json
import os
import sys
from collections import deque
from contextlib import contextmanager, suppress
from concurrent.futures.process import BrokenProcessPool
from enum import Enum
from functools import partial
from pathlib import Path
from typing import BinaryIO, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy
import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch
from tqdm import tqdm

from ..lexicon.sources import UserDictionaryWarning
from ..segmenter.default_criterion import set_default_criterion
from ..segmenter.user_dictionary_setup import add_user_dictionary
from ..segmenter.char_pretokenizer import CharPretokenizer
from ..segmenter.component import Segmenter
from ..segmenter.merge_words import SegmentedText
from ..segmenter.segmenter_tokenizer import SegmenterTokenizer
from . import app
from .errors import fail, warn, warnings_on_stderr
from .resume import InputLine, ResumeError, check_resumable, cut_incomplete_line
from .segment_processes import can_fork, segment_in_processes

STDIN = "-"
BOM = b"\xef\xbb\xbf"
# Words formatted at a time: a 1,000,000-character line's 606,000 words never
# exist as Python objects all at once (about 100 MB of them).
FORMAT_BLOCK = 16384


class UserDictionaryMode(str, Enum):
    force = "force"
    prefer = "prefer"


class LineFormat(str, Enum):
    """How a line of input or output holds its text: plain, or a JSON object."""

    text = "text"
    jsonl = "jsonl"


class Engine(str, Enum):
    local = "local"
    ray = "ray"


class InputError(Exception):
    """An input that cannot be read or segmented; the message names the file (and line)."""


class OutputError(Exception):
    """An output that cannot be written (a full disk, a file that takes no writes); the message names it."""


def split_line_end(raw: bytes) -> Tuple[bytes, str]:
    """A raw line (as binary iteration gives it) without its line end, and the
    line end its output gets: "\\r\\n" after b"\\r\\n", else "\\n" (also for a
    last line without one)."""
    if raw.endswith(b"\r\n"):
        return raw[:-2], "\r\n"
    return raw.removesuffix(b"\n"), "\n"


def stream_input_lines(
    stream: BinaryIO, name: str, progress: Optional[tqdm], max_length: int
) -> Iterator[InputLine]:
    """Yield the lines of a UTF-8 byte stream one at a time, each without its
    line end and with the line end its output gets (split_line_end): the
    segment CLI's input, streamed with progress and checked against max_length.

    Lines end at b"\\n" or b"\\r\\n"; a lone b"\\r" is text, said once on stderr
    (warn_lone_carriage_return). A BOM at the start is dropped.
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
        if not warned and "\r" in line:
            warned = warn_lone_carriage_return(name, number)
        yield InputLine(line, end)


def warn_lone_carriage_return(name: str, number: int) -> bool:
    """Say on stderr that a lone "\\r" stays inside its line. RETURNS True."""
    warn(
        f"{name}, line {number}: a carriage return (\\r) without \\n after it stays inside the line, as "
        "whitespace: segment ends lines at \\n and \\r\\n only (later ones in this input are not named). "
        "If the file has old Mac line ends (\\r alone), convert them first, e.g. with tr '\\r' '\\n'."
    )
    return True


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
    stream: BinaryIO, name: str, progress: Optional[tqdm], max_length: int, input_format: LineFormat
) -> Iterator[InputLine]:
    """The documents of one input, in order, each with its line end: its lines
    (stream_input_lines), or with ``input_format`` jsonl the "text" field of
    each line's JSON object.
    RAISES InputError as stream_input_lines and jsonl_text do."""
    lines = stream_input_lines(stream, name, progress, max_length)
    if input_format == LineFormat.text:
        return lines
    return (
        InputLine(jsonl_text(line.text, name, number), line.end) for number, line in enumerate(lines, start=1)
    )


def read_inputs(
    inputs: List[str], progress: tqdm, max_length: int, input_format: LineFormat
) -> Iterator[InputLine]:
    """Yield the documents of all inputs in order; ``-`` is standard input."""
    for name in inputs:
        if name == STDIN:
            yield from read_texts(sys.stdin.buffer, "<stdin>", progress, max_length, input_format)
            continue
        try:
            stream = open(name, "rb")
        except OSError as err:
            raise InputError(f"Cannot read the input file {name}: {err.strerror}") from None
        with stream:
            yield from read_texts(stream, name, progress, max_length, input_format)


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (the progress bar is drawn only there)."""
    return sys.stderr.isatty()


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


def prepare_pipeline(
    model: str,
    criterion: Optional[str],
    user_dict: Optional[Path],
    user_dict_mode: UserDictionaryMode,
    max_length: Optional[int] = None,
) -> Language:
    """The pipeline with its default criterion, user dictionary and (unless
    None) ``nlp.max_length`` set; fail on bad options."""
    nlp = load_pipeline(model)
    if max_length is not None:
        nlp.max_length = max_length
    if criterion is not None:
        try:
            set_default_criterion(nlp, criterion)
        except ValueError as err:
            fail(str(err))
    if user_dict is not None:
        try:
            with warnings_on_stderr(UserDictionaryWarning):
                add_user_dictionary(nlp, user_dict, user_dict_mode.value)
        except (OSError, ValueError) as err:
            fail(str(err))
    return nlp


def sole_segmenter(nlp: Language) -> Optional[Segmenter]:
    """The Segmenter that does all of ``nlp``'s work, or None: the tokenizer
    form with no components, or the character pretokenizer followed by a
    Segmenter component and nothing else."""
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        return nlp.tokenizer.segmenter if not nlp.pipeline else None
    if isinstance(nlp.tokenizer, CharPretokenizer) and len(nlp.pipeline) == 1:
        component = nlp.pipeline[0][1]
        return component if isinstance(component, Segmenter) else None
    return None


def words_of_doc(doc: Doc) -> SegmentedText:
    """The Doc's text and the [start, end) character offsets of its
    non-whitespace tokens, int64 (n_words, 2)."""
    offsets = [(token.idx, token.idx + len(token)) for token in doc if not token.is_space]
    return SegmentedText(doc.text, numpy.asarray(offsets, dtype=numpy.int64).reshape(-1, 2))


def segment_lines(nlp: Language, texts: Iterable[str], batch_size: int, n_process: int = 1) -> Iterator[SegmentedText]:
    """Per text, lazily and in order, its words, in batches of ``batch_size`` texts.

    A pipeline that only segments (``sole_segmenter``) gives the words of its
    segmenter's ``segment_texts`` without building Docs: the same words as its
    Docs' (tests/cli/test_segment.py), but a line of 1,000,000 characters
    needs no Doc of 1,000,000 character tokens (about 250 MB while built) and
    no Doc of its words. With ``n_process`` > 1 it runs in forked workers that
    return word offsets (segment_processes.py). Any other pipeline, and
    ``n_process`` > 1 where processes are not forked, runs spaCy's nlp.pipe
    (see spacy_cws/fork_safety.py) and reads the words off its Docs.
    """
    segmenter = sole_segmenter(nlp)
    if segmenter is not None and n_process > 1 and can_fork():
        return segment_in_processes(segmenter, texts, batch_size, n_process)
    if segmenter is None or n_process > 1:
        return map(words_of_doc, nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
    return (
        SegmentedText(text, words)
        for batch in minibatch(texts, size=batch_size)
        for text, words in zip(batch, segmenter.segment_texts(batch))
    )


def offset_blocks(words: numpy.ndarray) -> Iterator[List[List[int]]]:
    """The [start, end) offsets of ``words`` (int (n_words, 2)) as Python lists,
    ``FORMAT_BLOCK`` words at a time."""
    for first in range(0, len(words), FORMAT_BLOCK):
        yield words[first : first + FORMAT_BLOCK].tolist()


def format_text(segmented: SegmentedText) -> str:
    """The words separated by one space, as one output line (without its line end)."""
    text, words = segmented
    return " ".join(" ".join([text[start:end] for start, end in block]) for block in offset_blocks(words))


def json_items(arrays: Iterable[list]) -> str:
    """The items of one JSON array made of the concatenated ``arrays``, without
    its brackets, as json.dumps(..., ensure_ascii=False) writes them."""
    return ", ".join(json.dumps(array, ensure_ascii=False)[1:-1] for array in arrays if array)


def format_jsonl(segmented: SegmentedText) -> str:
    """The text, its words and their [start, end) character offsets, as one JSON
    line (without its line end): json.dumps of {"text", "words", "offsets"},
    written a block of words at a time."""
    text, words = segmented
    word_items = json_items([text[start:end] for start, end in block] for block in offset_blocks(words))
    line = (
        f'{{"text": {json.dumps(text, ensure_ascii=False)}, "words": [{word_items}], '
        f'"offsets": [{json_items(offset_blocks(words))}]}}'
    )
    # Chinese stays readable (ensure_ascii=False). json.dumps escapes control
    # characters but not U+0085, U+2028, U+2029, which str.splitlines and some
    # JSON-lines readers take for line ends: escaped, every reader finds one record a line.
    for separator in "\x85\u2028\u2029":
        line = line.replace(separator, f"\\u{ord(separator):04x}")
    return line


FORMATTERS: Dict[LineFormat, Callable[[SegmentedText], str]] = {
    LineFormat.text: format_text,
    LineFormat.jsonl: format_jsonl,
}


# Options shared with `evaluate`.
CRITERION_OPTION = typer.Option(
    None, "--criterion", "-c", help="Segmentation criterion (multi-criteria pipelines), e.g. ctb6 or sxu."
)

USER_DICT_OPTION = typer.Option(
    None,
    "--user-dict",
    # No square brackets: typer's rich help would take "[freq]" for markup and drop it.
    help="User dictionary (UTF-8), one word a line, then optionally its frequency and its POS tag, "
    "separated by spaces, or by tabs when the line holds a tab (then the word may hold spaces: "
    "'Color OS<TAB>5<TAB>nz'). See README.",
)

USER_DICT_MODE_OPTION = typer.Option(
    UserDictionaryMode.force, "--user-dict-mode", help="force: each dictionary word is one word; prefer: a lexicon hint."
)


@app.command("segment")
def segment_cli(
    files: Optional[List[str]] = typer.Argument(
        None, help="UTF-8 text files, one text a line. None, or '-', reads standard input.", show_default=False
    ),
    model: str = typer.Option(
        "zh_cws_gd", "--model", "-m", help="Pipeline name or path (with gd_segmenter, or a SegmenterTokenizer)."
    ),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write instead of standard output."),
    output_format: LineFormat = typer.Option(
        LineFormat.text, "--format", "-f", help="text: words separated by spaces; jsonl: text, words and offsets."
    ),
    input_format: LineFormat = typer.Option(
        LineFormat.text, "--input-format", help='text: one text a line; jsonl: the "text" field of each JSON line.'
    ),
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    criterion: Optional[str] = CRITERION_OPTION,
    user_dict: Optional[Path] = USER_DICT_OPTION,
    user_dict_mode: UserDictionaryMode = USER_DICT_MODE_OPTION,
    n_process: int = typer.Option(
        1, "--n-process", "-n", min=1, help="Processes (local engine) or actors, each holding one pipeline (ray engine)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue an interrupted run: keep the output's complete lines, segment the rest."
    ),
    engine: Engine = typer.Option(
        Engine.local, "--engine", help="local: this machine (nlp.pipe); ray: Ray Data (extra 'distributed')."
    ),
    address: Optional[str] = typer.Option(
        None, "--address", help="Ray cluster to join (e.g. auto, ray://head:10001); default: start a local one."
    ),
    probs: bool = typer.Option(
        False,
        "--probs",
        help='With --format jsonl: add "gap_probs", the probability of a word boundary at each gap between '
        "characters (doc._.gap_probs). Local engine, one process, no --resume.",
    ),
    max_line_chars: Optional[int] = typer.Option(
        None,
        "--max-line-chars",
        min=1,
        help="Longest line accepted, in characters; a longer line stops the run. Default: the pipeline's "
        "max_length (1,000,000 for the shipped pipelines). Memory grows with the longest line.",
        show_default=False,
    ),
):
    """Segment text into words, one output line per input line.

    Segment text into words, one output line per input line, in input order.

    The input is streamed in batches and the output written as it goes
    (memory does not grow with the input). A progress bar (bytes read, or
    lines with the ray engine) is drawn on stderr when stderr is a terminal.
    With --resume an interrupted run's output file keeps its complete lines
    and the run continues after them: the result is byte-identical to an
    uninterrupted run. The output's lines are checked first: each must be the
    output of its input line in the --format given.

    Lines end at \\n or \\r\\n, and each output line ends as its input line
    did. A lone \\r stays inside its line (as whitespace) and is warned about.
    A line that cannot be read (not UTF-8, too long, bad JSON) stops the run
    with a message naming it; the lines before it are written.
    """
    inputs = files or [STDIN]
    for name in inputs:
        # exists(), not is_file(): /dev/stdin and named pipes are inputs too.
        if name != STDIN and not Path(name).exists():
            fail(f"Input file not found: {name}")
    if output is not None and any(name != STDIN and Path(name).resolve() == output.resolve() for name in inputs):
        fail(f"The output {output} is also an input: it would be overwritten while it is read.")
    if resume and output is None:
        fail("--resume needs --output: the file whose complete lines are kept.")
    if engine == Engine.ray and (STDIN in inputs or resume):
        fail("--engine ray reads files (not standard input) and cannot --resume: use --engine local.")
    if address is not None and engine != Engine.ray:
        fail("--address is a Ray cluster's: pass --engine ray with it.")
    if probs and (output_format != LineFormat.jsonl or engine != Engine.local or n_process > 1 or resume):
        fail("--probs writes jsonl (--format jsonl) with the local engine in one process (--n-process 1), without --resume.")
    load = partial(prepare_pipeline, model, criterion, user_dict, user_dict_mode, max_line_chars)
    nlp = load()
    formatter = FORMATTERS[output_format]
    show_progress = stderr_is_terminal()
    progress = tqdm(
        total=None if STDIN in inputs else sum(Path(name).stat().st_size for name in inputs),
        unit="B", unit_scale=True, desc="segment", disable=not show_progress or engine == Engine.ray,
    )
    stopped: List[InputError] = []
    try:
        if engine == Engine.ray:
            lines = ray_lines(inputs, load, formatter, nlp.max_length, batch_size, n_process, address, input_format, show_progress)
        else:
            records = read_inputs(inputs, progress, nlp.max_length, input_format)
            if resume:
                skip_resumed_lines(output, records, output_format)
            if probs:
                from .segment_probs import probs_lines

                lines = probs_lines(nlp, until_input_error(records, stopped), batch_size, sole_segmenter(nlp), formatter)
            else:
                lines = local_lines(nlp, until_input_error(records, stopped), formatter, batch_size, n_process)
        with open_output(output, append=resume) as sink:
            write_lines(sink, lines, "standard output" if output is None else f"the output file {output}")
    except InputError as err:
        fail(str(err))
    except OutputError as err:
        if output is None:
            quiet_stdout()
        fail(f"{err}" + ("" if output is None else " Its complete lines are kept: once it can be written, continue with --resume."))
    except BrokenProcessPool:
        fail(
            f"A worker process of --n-process {n_process} ended without finishing its batch (killed, "
            "e.g. for lack of memory). Use a smaller --n-process or --batch-size. The output so far "
            "holds complete lines: continue with --resume."
        )
    except BrokenPipeError:
        # The reader stopped early (e.g. `| head`): exit quietly.
        quiet_stdout()
        raise typer.Exit(1)
    finally:
        progress.close()
    if stopped:
        kept = "" if output is None else f" to {output}: fix the line, then continue with --resume"
        fail(f"{stopped[0]} The lines before it are written{kept}.")


def skip_resumed_lines(output: Path, records: Iterator[InputLine], output_format: LineFormat) -> None:
    """Take from ``records`` the lines an interrupted run's ``output`` already
    holds, checking each (check_resumable), then cut the line it left
    incomplete. Fail, leaving ``output`` as it is, when it is not a prefix of
    this input's output in ``output_format``.
    RAISES InputError as the reader does for the lines checked."""
    try:
        check_resumable(output, records, output_format.value)
        if output.exists():
            cut_incomplete_line(output)
    except ResumeError as err:
        fail(str(err))
    except OSError as err:
        fail(f"Cannot resume from {output}: {err.strerror}")


def until_input_error(records: Iterator[InputLine], stopped: List[InputError]) -> Iterator[InputLine]:
    """The records up to the first that cannot be read, whose InputError is
    appended to ``stopped``: the lines before a bad line are still segmented
    and written, and the run can continue after it with --resume."""
    try:
        yield from records
    except InputError as err:
        stopped.append(err)


def local_lines(
    nlp: Language, records: Iterable[InputLine], formatter: Callable[[SegmentedText], str], batch_size: int, n_process: int
) -> Iterator[str]:
    """Per record, in order, its output line with its line end (segment_lines on
    the texts; each line end waits in a queue for its text's words)."""
    ends = deque()

    def texts() -> Iterator[str]:
        for text, end in records:
            ends.append(end)
            yield text

    for segmented in segment_lines(nlp, texts(), batch_size, n_process):
        yield formatter(segmented) + ends.popleft()


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


def quiet_stdout() -> None:
    """Point stdout at devnull, so that the interpreter's final flush of a
    stdout that failed (a closed pipe, a full disk) raises no second error."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

def ray_lines(inputs, load, formatter, max_length, batch_size, actors, address, input_format, show_progress) -> Iterator[str]:
    """The output lines by the ray engine (spacy_cws.distributed.ray_engine);
    fail when ray is missing, re-raise the reader's InputError from a worker."""
    try:
        from ..distributed.ray_engine import segment_with_ray
    except ImportError as err:
        fail(str(err))
    reader = partial(read_texts, input_format=input_format)
    actor = {"load": load, "segment": segment_lines, "format_line": formatter, "batch_size": batch_size}
    try:
        lines = segment_with_ray(inputs, actor, actors, batch_size, address, reader, max_length, show_progress)
        yield from tqdm(lines, unit=" lines", desc="segment", disable=not show_progress)
    except ImportError as err:
        fail(str(err))
    except Exception as err:  # noqa: BLE001 - Ray wraps a worker's error; ours is its cause
        cause = getattr(err, "cause", None)
        if isinstance(cause, InputError):
            raise cause from None
        raise
