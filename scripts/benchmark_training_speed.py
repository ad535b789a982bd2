"""Training speed of a segmentation config: characters per second through nlp.update.

    python scripts/benchmark_training_speed.py CONFIG --paths.train T --paths.dev D [--steps 40] [--output f.jsonl]

Builds and initializes the pipeline from CONFIG as ``spacy train`` does
(spaCy's init_nlp), then times ``--steps`` updates on batches from the
config's own training corpus and batcher, after ``--warmup`` untimed ones.
Prints one JSON line: config, steps, characters (real, not padded), seconds,
chars_per_second, torch threads. Extra ``--section.key value`` options
override the config as in ``spacy train``. A benchmark, not a test: run it on
an idle machine.
"""
import itertools
import json
import time
from pathlib import Path
from typing import Optional

import torch
import typer
from spacy.cli._util import parse_config_overrides
from spacy.training.initialize import init_nlp
from spacy.util import load_config, registry, resolve_dot_names

import spacy_cws  # noqa: F401  (registers the architectures for a plain script run)


def main(
    ctx: typer.Context,
    config_path: Path = typer.Argument(..., help="Training config, e.g. configs/cpu_san_crf.cfg."),
    steps: int = typer.Option(40, "--steps", help="Timed updates."),
    warmup: int = typer.Option(3, "--warmup", help="Untimed updates first."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also append the JSON line here."),
):
    overrides = parse_config_overrides(ctx.args)
    config = load_config(config_path, overrides=overrides, interpolate=False)
    nlp = init_nlp(config.interpolate())
    training = registry.resolve(nlp.config.interpolate()["training"])
    (train_corpus,) = resolve_dot_names(nlp.config.interpolate(), [training["train_corpus"]])
    batches = training["batcher"](train_corpus(nlp))
    optimizer = training["optimizer"]
    chosen = list(itertools.islice(batches, warmup + steps))
    for batch in chosen[:warmup]:
        nlp.update(batch, sgd=optimizer)
    characters, start = 0, time.perf_counter()
    for batch in chosen[warmup:]:
        nlp.update(batch, sgd=optimizer)
        characters += sum(len(eg.reference.text) for eg in batch)
    seconds = time.perf_counter() - start
    record = {
        "config": str(config_path),
        "overrides": overrides,
        "steps": len(chosen) - warmup,
        "characters": characters,
        "seconds": round(seconds, 3),
        "chars_per_second": round(characters / seconds, 1),
        "torch_threads": torch.get_num_threads(),
    }
    print(json.dumps(record, ensure_ascii=False))
    if output is not None:
        with output.open("a", encoding="utf-8") as sink:
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    app = typer.Typer(add_completion=False)
    app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(main)
    app()
