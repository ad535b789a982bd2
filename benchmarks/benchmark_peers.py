"""Benchmark spacy-cws pipelines against peer segmenters on the same test sets.

    python benchmarks/benchmark_peers.py OUTPUT_DIR --assets ../shared/data \\
        --pipeline gd-ctb6=training/ctb6-cpu/model-best \\
        --pkuseg-trained pkuseg-ctb6=training/pkuseg-ctb6 \\
        --pkuseg-mixed assets/pkuseg_mixed --summary metrics/benchmark.json

Runs jieba, THULAC, pkuseg (pretrained mixed model), spaCy's zh tokenizer
(char and jieba) and the given pipelines and retrained pkuseg models, each in
its own process, on CTB6, SXU, ZX and the SIGHAN 2005 test sets; scores them
with the official SIGHAN measures; writes OUTPUT_DIR/results.jsonl and
OUTPUT_DIR/table.md and prints the table; with --summary, also the committed
summary that README's tables are rendered from (benchmarks/summary.py). A
peer whose package or model is missing is skipped with a message. Timings mean something only on an idle
machine. See scripts/train_pkuseg.py for the two pkuseg models.

--python runs every worker in another interpreter (the project's benchmark:
a venv without torch, with README's user install and the peers), except the
--baseline pipelines, which run in this one (e.g. an earlier release on torch).
"""
import json
import shlex
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import typer

# Modules of benchmarks/, the folder Python puts first on sys.path for a script in it.
from peers import DEFAULT_PEERS, PEERS
from run import TEST_SETS, PeerSpec, benchmark
from summary import summarize, write_summary


def _named_paths(values: List[str], option: str) -> List[Tuple[str, str]]:
    """NAME=PATH strings -> (name, path) pairs."""
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise typer.BadParameter(f"expected NAME=PATH, got {value!r}", param_hint=option)
        pairs.append((name, path))
    return pairs


def main(
    output_dir: Path = typer.Argument(..., help="Folder for results.jsonl, table.md, system outputs and logs."),
    assets: Path = typer.Option(
        Path("assets"), "--assets", help="Corpus folder in the catalog layout (e.g. ../shared/data)."
    ),
    pipeline: List[str] = typer.Option(
        [], "--pipeline", help="NAME=PATH of a spacy-cws pipeline (nlp.pipe); repeatable."
    ),
    segment: List[str] = typer.Option(
        [], "--segment", help="NAME=PATH of a spacy-cws pipeline run as `segment` runs it; repeatable."
    ),
    baseline: List[str] = typer.Option(
        [],
        "--baseline",
        help="NAME=PATH of a spacy-cws pipeline run by nlp.pipe in this python, not --python's "
        "(e.g. an earlier release on torch); repeatable.",
    ),
    python: Optional[str] = typer.Option(
        None,
        "--python",
        help="The python of every worker, e.g. a venv without torch with the peers installed (default: this one).",
    ),
    pkuseg_trained: List[str] = typer.Option(
        [], "--pkuseg-trained", help="NAME=PATH of a retrained pkuseg model; repeatable."
    ),
    pkuseg_mixed: Path = typer.Option(
        Path("assets/pkuseg_mixed"), "--pkuseg-mixed", help="Folder of pkuseg's pretrained mixed model."
    ),
    peers: str = typer.Option(
        ",".join(DEFAULT_PEERS + ("pkuseg-mixed",)), "--peers", help="Comma-separated built-in peers."
    ),
    test_sets: str = typer.Option(",".join(TEST_SETS), "--test-sets", help="Comma-separated catalog names."),
    max_lines: Optional[int] = typer.Option(
        None, "--max-lines", help="Only the first N lines of each test set (smoke runs)."
    ),
    repeats: int = typer.Option(1, "--repeats", help="Timed runs per test set; the best is kept."),
    rounds: int = typer.Option(
        1,
        "--rounds",
        min=1,
        help="Times every peer runs, all peers in turn; each peer's fastest round is kept "
        "(fairer ratios on a busy host).",
    ),
    threads: int = typer.Option(1, "--threads", help="Threads for torch/OMP/MKL in every worker."),
    summary: Optional[Path] = typer.Option(
        None, "--summary", help="Also write the run's summary here (metrics/benchmark.json: README's tables' figures)."
    ),
):
    specs = []
    for name in filter(None, peers.split(",")):
        if name not in PEERS or name in ("pipeline", "pkuseg-trained"):
            raise typer.BadParameter(f"unknown built-in peer {name!r}", param_hint="--peers")
        specs.append(PeerSpec(name, name, str(pkuseg_mixed) if name == "pkuseg-mixed" else None, python))
    specs += [
        PeerSpec(name, "pkuseg-trained", path, python)
        for name, path in _named_paths(pkuseg_trained, "--pkuseg-trained")
    ]
    specs += [PeerSpec(name, "pipeline", path, python) for name, path in _named_paths(pipeline, "--pipeline")]
    specs += [PeerSpec(name, "segment", path, python) for name, path in _named_paths(segment, "--segment")]
    specs += [PeerSpec(name, "pipeline", path) for name, path in _named_paths(baseline, "--baseline")]
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise typer.BadParameter(f"peer names must be unique: {', '.join(labels)}")
    names = [name for name in test_sets.split(",") if name]
    unknown = [name for name in names if name not in TEST_SETS]
    if unknown:
        raise typer.BadParameter(f"unknown test sets: {', '.join(unknown)}", param_hint="--test-sets")
    records = benchmark(
        specs, names, assets, output_dir, max_lines=max_lines, repeats=repeats, threads=threads, rounds=rounds
    )
    if summary:
        test_sets = json.loads((output_dir / "testsets.json").read_text(encoding="utf-8"))
        write_summary(summarize(records, test_sets, command=shlex.join(["python", *sys.argv])), summary)
        typer.echo(f"Wrote {summary}")
    typer.echo((output_dir / "table.md").read_text(encoding="utf-8"))
    typer.echo(f"Wrote {output_dir / 'results.jsonl'} and {output_dir / 'table.md'}")


if __name__ == "__main__":
    typer.run(main)
