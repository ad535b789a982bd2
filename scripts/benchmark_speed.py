"""Characters per second of a segmentation pipeline over a text file, through nlp.pipe.

    python scripts/benchmark_speed.py PIPELINE TEXT_FILE [--batch-size 256 ...] [--repeats 3]

TEXT_FILE is raw or segmented text, one sentence per line (spaces are removed,
so a gold file such as ctb6/test.seg can be used). Prints one JSON line per
batch size: characters, best-of-N seconds, chars_per_second, torch threads. A
benchmark, not a test: run it on an idle machine.
"""
import json
import time
from pathlib import Path
from typing import List

import spacy
import torch
import typer


def main(
    pipeline: str = typer.Argument(..., help="Pipeline name or path."),
    text_file: Path = typer.Argument(..., help="One sentence per line (spaces are removed)."),
    batch_size: List[int] = typer.Option([256], "--batch-size", help="nlp.pipe batch sizes to time."),
    repeats: int = typer.Option(3, "--repeats", help="Timed runs per batch size; the best is reported."),
    tokenizer_pipe: bool = typer.Option(False, "--tokenizer-pipe", help="Time nlp.tokenizer.pipe instead (SegmenterTokenizer pipelines)."),
):
    nlp = spacy.load(pipeline)
    texts = ["".join(line.split()) for line in text_file.read_text(encoding="utf-8").splitlines()]
    texts = [text for text in texts if text]
    characters = sum(len(text) for text in texts)
    run = nlp.tokenizer.pipe if tokenizer_pipe else nlp.pipe
    list(run(texts[:64], batch_size=64))  # warm-up
    for size in batch_size:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            for doc in run(texts, batch_size=size):
                pass
            best = min(best, time.perf_counter() - start)
        print(json.dumps({
            "pipeline": pipeline,
            "file": str(text_file),
            "call": "nlp.tokenizer.pipe" if tokenizer_pipe else "nlp.pipe",
            "batch_size": size,
            "characters": characters,
            "seconds": round(best, 3),
            "chars_per_second": round(characters / best),
            "torch_threads": torch.get_num_threads(),
        }))


if __name__ == "__main__":
    typer.run(main)
