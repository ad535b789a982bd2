"""``segment --engine ray``: Ray Data batch inference over an actor pool.

The input files are read as a Ray Dataset (``read_binary_files``, one file a
block), cut into lines by the local engine's own reader (spacy_cws.streaming:
same line ends, BOM and UTF-8 rules, so the output is byte-identical), and
segmented (streaming.segmentation.segment_lines) with ``map_batches`` over an
actor pool in which each actor loads the pipeline once. Ray keeps the blocks
in input order (``preserve_order``); the driver writes the formatted lines as
they arrive. Scheduling, retries and
multi-machine placement are Ray's: see docs/guides/corpus-scale.md.
Memory: a worker holds one input file at a time, so split huge corpora into
files of a few hundred MB.
"""
import io
from typing import Callable, Dict, Iterator, List, Optional

import numpy

from ..streaming.formats import LineFormat
from ..streaming.lines import ended_but_last, read_texts
from ..streaming.segmentation import line_makers

try:
    import ray
    from ray.data import DataContext
except ImportError:  # the CLI says how to install the extra
    ray = None

MISSING = 'The ray engine needs Ray Data: pip install -e ".[distributed]" (or pip install "ray[data]").'


class PipelineActor:
    """One loaded pipeline in a Ray actor; called on batches of texts.

    load: builds the pipeline (run once, in the actor's process), e.g.
        streaming.pipeline.load_configured with the run's options.
    output_format: the output lines' format (streaming.formats).
    tags: whether the lines hold the words' tags (streaming.tagging.writes_tags).
    """

    def __init__(self, load: Callable, output_format: LineFormat, batch_size: int, tags: bool = False):
        self.nlp = load()
        self.segment, self.format_line = line_makers(self.nlp, output_format, tags, batch_size)

    def __call__(self, batch: Dict[str, numpy.ndarray]) -> Dict[str, List[str]]:
        segmented = self.segment(list(batch["text"]))
        return {"line": [self.format_line(line) + end for line, end in zip(segmented, batch["end"])]}


def file_texts(row: Dict, input_format: LineFormat, max_length: int) -> Iterator[Dict[str, str]]:
    """The documents of one input file (a row of ``read_binary_files``), in
    order, each with the line end its output line gets (streaming.lines.read_texts).
    RAISES the reader's InputError for bad input, naming the file and line."""
    for text, end in read_texts(io.BytesIO(row["bytes"]), row["path"], None, max_length, input_format):
        yield {"text": text, "end": end}


def segment_with_ray(
    paths: List[str],
    load: Callable,
    input_format: LineFormat,
    output_format: LineFormat,
    actors: int,
    batch_size: int,
    address: Optional[str],
    max_length: int,
    show_progress: bool,
    tags: bool = False,
) -> Iterator[str]:
    """Output lines of ``paths`` in input order, segmented by ``actors`` actors,
    each with its line end (the local engine's: streaming.lines.read_inputs).

    load, output_format, batch_size, tags: as PipelineActor takes them.
    address: a Ray cluster to join ("auto", "ray://host:10001"); None starts a local one.
    input_format, max_length: as file_texts takes them.
    RAISES ImportError when ray is not installed; ray.exceptions.RayTaskError
        wrapping the reader's error for bad input.
    """
    if ray is None:
        raise ImportError(MISSING)
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False, include_dashboard=False)
    context = DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = show_progress
    dataset = (
        # Reading a file and cutting it into lines is I/O-bound: it reserves no
        # CPU, so that the actor pool can hold every CPU of a small cluster
        # (with 1-CPU reads, 2 actors on 2 CPUs left no CPU to read with, and
        # the dataset never progressed).
        ray.data.read_binary_files(paths, include_paths=True, override_num_blocks=len(paths), num_cpus=0)
        .flat_map(file_texts, fn_kwargs={"input_format": input_format, "max_length": max_length}, num_cpus=0)
        .map_batches(
            PipelineActor,
            fn_constructor_kwargs={
                "load": load, "output_format": output_format, "batch_size": batch_size, "tags": tags
            },
            batch_size=batch_size,
            compute=ray.data.ActorPoolStrategy(size=actors),
            num_cpus=1,
        )
    )
    lines = (line for batch in dataset.iter_batches(batch_size=None, batch_format="numpy") for line in batch["line"])
    # A file's last line without a line end gets "\n" where another file follows.
    yield from ended_but_last(lines, _ended_line)


def _ended_line(line: str) -> str:
    return line if line.endswith("\n") else line + "\n"
