"""Characters per second of a segmentation pipeline over a text file, through nlp.pipe.

    python benchmarks/benchmark_speed.py PIPELINE TEXT_FILE [--batch-size 256 ...]
        [--long-document 1000000] [--repeats 3] [--output speed.jsonl]
        [--precision bfloat16] [--threads 1]

TEXT_FILE is raw or segmented text, one sentence per line (spaces are removed,
so a gold file such as ctb6/test.seg can be used), or a DocBin (.spacy) whose
Doc texts are used as they are (e.g. corpus/resume/test.spacy). Prints one JSON line per
measurement: characters, best-of-N seconds, chars_per_second, torch threads,
and the process's peak RSS after loading the pipeline. ``--long-document N``
also times one nlp(text) call on a single line of N characters made by
joining the file's sentences (repeated as needed); ``--batch-size 0`` skips
the nlp.pipe timings, so that the peak RSS is the long document's alone.
``--precision`` sets the segmenters' torch inference precision
(``Segmenter.set_inference_precision``; ONNX Runtime runs its graph's),
``--threads`` sets torch's threads. A benchmark, not a test: run it on an
idle machine, or compare against a peer timed in the same run
(`spacy project run benchmark`).
"""
import json
import time
from pathlib import Path
from typing import Callable, List, Optional, Sequence

import spacy
import srsly
import torch
import typer
from spacy.tokens import DocBin

from spacy_cws.segmenter.pipeline_segmenters import inference_precision_of, segmenters_of

# A module of benchmarks/, the folder Python puts first on sys.path for a script in it.
from memory import current_rss_mb, peak_rss_mb


def long_document(texts: Sequence[str], characters: int) -> str:
    """One line of exactly ``characters`` characters: the texts joined, repeated as needed."""
    joined = "".join(texts)
    return (joined * (characters // len(joined) + 1))[:characters]


def best_seconds(run: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` wall-clock timings of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main(
    pipeline: str = typer.Argument(..., help="Pipeline name or path."),
    text_file: Path = typer.Argument(..., help="One sentence per line (spaces are removed), or a .spacy DocBin."),
    batch_size: List[int] = typer.Option([256], "--batch-size", help="nlp.pipe batch sizes to time."),
    long_document_chars: int = typer.Option(
        0, "--long-document", help="Also time one document of this many characters (0: no)."
    ),
    repeats: int = typer.Option(3, "--repeats", help="Timed runs per measurement; the best is reported."),
    tokenizer_pipe: bool = typer.Option(
        False, "--tokenizer-pipe", help="Time nlp.tokenizer.pipe instead (SegmenterTokenizer pipelines)."
    ),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the JSON lines here."),
    precision: Optional[str] = typer.Option(
        None,
        "--precision",
        help="Precision of the segmenters' torch inference copy (float32, bfloat16, auto); default float32.",
    ),
    threads: Optional[int] = typer.Option(
        None, "--threads", help="torch and ONNX Runtime threads; default: torch's, and the segmenter's setting."
    ),
):
    if threads:
        torch.set_num_threads(threads)
    start = time.perf_counter()
    nlp = spacy.load(pipeline)
    load_seconds = time.perf_counter() - start
    if precision:
        for segmenter in segmenters_of(nlp):
            segmenter.set_inference_precision(precision)
    # ONNX Runtime's threads too (it does not read torch's), before the first text builds its InferenceSession.
    if threads:
        for segmenter in segmenters_of(nlp):
            segmenter.cfg["inference_threads"] = threads
    rss_after_load = peak_rss_mb()
    if text_file.suffix == ".spacy":
        texts = [doc.text for doc in DocBin().from_disk(text_file).get_docs(nlp.vocab)]
    else:
        texts = ["".join(line.split()) for line in text_file.read_text(encoding="utf-8").splitlines()]
    texts = [text for text in texts if text]
    characters = sum(len(text) for text in texts)
    run = nlp.tokenizer.pipe if tokenizer_pipe else nlp.pipe
    list(run(texts[:64], batch_size=64))  # warm-up (builds the inference copy of the model)
    rss_after_warm_up = current_rss_mb()
    common = {
        "pipeline": pipeline,
        "file": str(text_file),
        "load_seconds": round(load_seconds, 2),
        "peak_rss_mb_after_load": round(rss_after_load, 1) if rss_after_load else None,
        "rss_mb_after_warm_up": round(rss_after_warm_up, 1) if rss_after_warm_up else None,
        "torch_threads": torch.get_num_threads(),
        "precision": inference_precision_of(nlp),
    }
    records = []
    for size in filter(None, batch_size):
        seconds = best_seconds(lambda: list(run(texts, batch_size=size)), repeats)
        call = "nlp.tokenizer.pipe" if tokenizer_pipe else "nlp.pipe"
        records.append(
            {**common, "call": call, "batch_size": size, "characters": characters, "seconds": round(seconds, 3)}
        )
    if long_document_chars:
        document = long_document(texts, long_document_chars)
        call = nlp.tokenizer if tokenizer_pipe else nlp
        seconds = best_seconds(lambda: call(document), repeats)
        records.append(
            {
                **common,
                "call": "one document",
                "batch_size": 1,
                "characters": len(document),
                "seconds": round(seconds, 3),
            }
        )
    for record in records:
        record["chars_per_second"] = round(record["characters"] / record["seconds"])
        record["peak_rss_mb"] = round(peak_rss_mb() or 0, 1) or None
        print(json.dumps(record))
    if output:
        srsly.write_jsonl(output, records)


if __name__ == "__main__":
    typer.run(main)
