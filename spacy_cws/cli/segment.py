"""``python -m spacy_cws segment [FILE ...]``: segment UTF-8 text, one line at a time.

The command checks its options, says what went wrong on stderr (no
traceback) and runs the library's streaming segmentation (spacy_cws.streaming):
lines.py reads the input (line ends, BOM, UTF-8, JSON lines), segmentation.py
segments it, formats.py writes each output line (``text`` or ``jsonl``),
output.py and resume.py write and continue the output file, run_record.py
records (and on --resume checks) the pipeline that writes it.
"""
import os
import sys
from concurrent.futures.process import BrokenProcessPool
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, List, Optional

import spacy
import typer
from spacy.language import Language
from tqdm import tqdm

from ..damaged_pipeline import DamagedPipelineError
from ..lexicon.sources import UserDictionaryWarning
from ..streaming.formats import LineFormat, format_jsonl_probs
from ..streaming.lines import STDIN, InputError, InputLine, read_inputs, until_input_error
from ..streaming.output import OutputError, open_output, write_lines
from ..streaming.pipeline import configure_pipeline, load_configured, sole_segmenter, without_tagging
from ..streaming.resume import ResumeError, check_resumable, cut_incomplete_line
from ..streaming.run_record import check_run_record, record_path, run_record, write_run_record
from ..streaming.segmentation import line_makers, output_lines, scored_lines
from ..streaming.tagging import pipeline_tags, writes_tags
from . import app
from .errors import fail, warn, warnings_on_stderr


class UserDictionaryMode(str, Enum):
    force = "force"
    prefer = "prefer"


class Engine(str, Enum):
    local = "local"
    ray = "ray"


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (the progress bar is drawn only there)."""
    return sys.stderr.isatty()


def load_pipeline(model: str) -> Language:
    """Load a pipeline, or fail saying how to get one."""
    try:
        return spacy.load(model)
    except DamagedPipelineError as err:  # names the file and how to get a good copy
        fail(str(err))
    # Loading runs the package's code and config: any failure means "no usable model".
    except Exception as err:
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
    None) ``nlp.max_length`` set (streaming.pipeline.configure_pipeline); fail
    on bad options, and say the user dictionary's warnings on stderr."""
    nlp = load_pipeline(model)
    try:
        with warnings_on_stderr(UserDictionaryWarning):
            return configure_pipeline(nlp, criterion, user_dict, user_dict_mode.value, max_length)
    except (OSError, ValueError) as err:
        fail(str(err))


# Options shared with `evaluate`.
CRITERION_OPTION = typer.Option(
    None, "--criterion", "-c", help="Segmentation criterion (multi-criteria pipelines), e.g. ctb6 or sxu."
)

MAX_LINE_CHARS_OPTION = typer.Option(
    None,
    "--max-line-chars",
    min=1,
    help="Longest line accepted, in characters; a longer line stops the run. Default: the pipeline's "
    "max_length (1,000,000 for the shipped pipelines). Memory grows with the longest line.",
    show_default=False,
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
    UserDictionaryMode.force,
    "--user-dict-mode",
    help="force: each dictionary word is one word; prefer: a lexicon hint.",
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
        1,
        "--n-process",
        "-n",
        min=1,
        help="Processes (local engine) or actors, each holding one pipeline (ray engine).",
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
    tags: bool = typer.Option(
        False,
        "--tags",
        help="With --format text: write each word as word/TAG, as jieba.posseg prints them (PKU tags, "
        'token.tag_); needs a pipeline that tags. --format jsonl adds "tags" whenever the pipeline tags.',
    ),
    max_line_chars: Optional[int] = MAX_LINE_CHARS_OPTION,
):
    """Segment text into words, one output line per input line.

    Segment text into words, one output line per input line, in input order.

    The input is streamed in batches and the output written as it goes
    (memory does not grow with the input). A progress bar (bytes read, or
    lines with the ray engine) is drawn on stderr when stderr is a terminal.
    With --resume an interrupted run's output file keeps its complete lines
    and the run continues after them: the result is byte-identical to an
    uninterrupted run. The output's lines are checked first: each must be the
    output of its input line in the --format given, and the pipeline,
    criterion and user dictionary those of the run that began it (recorded
    in OUTPUT.segment.json beside the output file; an output without one is
    warned about).

    Lines end at \\n or \\r\\n, and each output line ends as its input line
    did (a last line without a line end gets none). A lone \\r stays inside
    its line (as whitespace) and is warned about.
    A line that cannot be read (not UTF-8, too long, bad JSON) stops the run
    with a message naming it; the lines before it are written.
    """
    inputs = files or [STDIN]
    for name in inputs:
        # exists(), not is_file(): /dev/stdin and named pipes are inputs too.
        if name != STDIN and not Path(name).exists():
            fail(f"Input file not found: {name}")
    written = set() if output is None else {output.resolve(), record_path(output).resolve()}
    if any(name != STDIN and Path(name).resolve() in written for name in inputs):
        fail(f"The output {output} or its run record is also an input: it would be overwritten while it is read.")
    if resume and output is None:
        fail("--resume needs --output: the file whose complete lines are kept.")
    if engine == Engine.ray and (STDIN in inputs or resume):
        fail("--engine ray reads files (not standard input) and cannot --resume: use --engine local.")
    if address is not None and engine != Engine.ray:
        fail("--address is a Ray cluster's: pass --engine ray with it.")
    if probs and (output_format != LineFormat.jsonl or engine != Engine.local or n_process > 1 or resume):
        fail(
            "--probs writes jsonl (--format jsonl) with the local engine in one process (--n-process 1), "
            "without --resume."
        )
    if probs and tags:
        fail("--probs and --tags cannot be combined: the gap probabilities are written without tags.")
    nlp = prepare_pipeline(model, criterion, user_dict, user_dict_mode, max_line_chars)
    if tags and not pipeline_tags(nlp):
        fail(
            f"--tags needs a pipeline that tags (a component that sets token.tag_, such as spaCy's tagger): "
            f"'{model}' has {', '.join(nlp.pipe_names) or 'no components'}. See docs/guides/part-of-speech.md."
        )
    tagged = not probs and writes_tags(nlp, output_format.value, tags)
    if not tagged:
        without_tagging(nlp)
    # A new output file gets the run's record; a resumed one keeps its own (checked), or has none.
    record = None if output is None else run_record(nlp, user_dict, user_dict_mode.value)
    new_output = output is not None and (not resume or not output.exists() or output.stat().st_size == 0)
    show_progress = stderr_is_terminal()
    progress = tqdm(
        total=None if STDIN in inputs else sum(Path(name).stat().st_size for name in inputs),
        unit="B", unit_scale=True, desc="segment", disable=not show_progress or engine == Engine.ray,
    )
    stopped: List[InputError] = []
    try:
        if engine == Engine.ray:
            # Each actor loads the pipeline as this process did, with the library's loader (no CLI code in workers).
            load = partial(
                load_configured, model, criterion, user_dict, user_dict_mode.value, max_line_chars, not tagged
            )
            lines = ray_lines(
                inputs, load, input_format, output_format, n_process, batch_size, address, nlp.max_length,
                show_progress, tagged,
            )
        else:
            records = read_inputs(inputs, progress, nlp.max_length, input_format, warn)
            if resume:
                skip_resumed_lines(output, records, output_format, record, tagged)
            records = until_input_error(records, stopped)
            if probs:
                segment = partial(scored_lines, nlp, batch_size=batch_size, segmenter=sole_segmenter(nlp))
                lines = output_lines(records, segment, format_jsonl_probs)
            else:
                lines = output_lines(records, *line_makers(nlp, output_format, tagged, batch_size, n_process))
        with open_output(output, append=resume) as sink:
            if new_output:
                keep_run_record(output, record)
            write_lines(sink, lines, "standard output" if output is None else f"the output file {output}")
    except (InputError, DamagedPipelineError) as err:  # DamagedPipelineError: a graph found damaged when first run
        fail(str(err))
    except OutputError as err:
        if output is None:
            quiet_stdout()
        fail(
            f"{err}"
            + (
                ""
                if output is None
                else " Its complete lines are kept: once it can be written, continue with --resume."
            )
        )
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


def skip_resumed_lines(
    output: Path, records: Iterator[InputLine], output_format: LineFormat, record: dict, tags: bool
) -> None:
    """Take from ``records`` the lines an interrupted run's ``output`` already
    holds, checking each (check_resumable), then cut the line it left
    incomplete. Fail, leaving ``output`` as it is, when its run record is not
    ``record`` (check_run_record) or it is not a prefix of this input's output
    in ``output_format`` (with ``tags``: tagged); warn when it has no run record.
    RAISES InputError as the reader does for the lines checked."""
    try:
        if output.exists() and output.stat().st_size and not check_run_record(output, record):
            warn(
                f"{output} has no run record ({record_path(output)}): which pipeline, criterion and user "
                "dictionary began it cannot be checked, only that its lines are this input's. It is "
                "continued, and left without a record."
            )
        check_resumable(output, records, output_format.value, tags)
        if output.exists():
            cut_incomplete_line(output)
    except ResumeError as err:
        fail(str(err))
    except OSError as err:
        fail(f"Cannot resume from {output}: {err.strerror}")


def keep_run_record(output: Path, record: dict) -> None:
    """Write the run record beside a new ``output`` (write_run_record); warn
    when it cannot be written: the run goes on, and a --resume of its output
    cannot check the pipeline."""
    try:
        write_run_record(output, record)
    except OSError as err:
        warn(
            f"Cannot write the run record {record_path(output)} ({err.strerror or err}): a --resume of "
            f"{output} will not check which pipeline, criterion and user dictionary began it."
        )


def quiet_stdout() -> None:
    """Point stdout at devnull, so that the interpreter's final flush of a
    stdout that failed (a closed pipe, a full disk) raises no second error."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def ray_lines(
    inputs: List[str],
    load: Callable[[], Language],
    input_format: LineFormat,
    output_format: LineFormat,
    actors: int,
    batch_size: int,
    address: Optional[str],
    max_length: int,
    show_progress: bool,
    tags: bool = False,
) -> Iterator[str]:
    """The output lines by the ray engine (spacy_cws.distributed.ray_engine's
    segment_with_ray, which takes these arguments); fail when ray is missing,
    re-raise the reader's InputError from a worker."""
    try:
        from ..distributed.ray_engine import segment_with_ray
    except ImportError as err:
        fail(str(err))
    try:
        lines = segment_with_ray(
            inputs, load, input_format, output_format, actors, batch_size, address, max_length, show_progress, tags
        )
        yield from tqdm(lines, unit=" lines", desc="segment", disable=not show_progress)
    except ImportError as err:
        fail(str(err))
    except Exception as err:  # Ray wraps a worker's error; ours is its cause
        cause = getattr(err, "cause", None)
        if isinstance(cause, InputError):
            raise cause from None
        raise
