"""The benchmark harness (benchmarks/, tooling outside the package) as its users
run it: through its command lines, never imported."""
import json
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

import pytest

from spacy_cws.corpora.catalog import get_corpus

from ..conftest import REPO_ROOT

BENCHMARKS = REPO_ROOT / "benchmarks"
# The catalog's name of the test set that write_test_set makes.
TEST_SET = "pku"


def benchmark_peers(output_dir: Path, *options, env: Optional[dict] = None) -> List[dict]:
    """``python benchmarks/benchmark_peers.py OUTPUT_DIR OPTIONS``; RETURNS the
    records of OUTPUT_DIR/results.jsonl."""
    command = [sys.executable, str(BENCHMARKS / "benchmark_peers.py"), str(output_dir), *map(str, options)]
    _run(command, env)
    return _records(output_dir / "results.jsonl")


def write_test_set(assets: Path, lines: Sequence[str]) -> Path:
    """A SIGHAN 2005-style test set ("pku" in the catalog layout) under ``assets``
    whose raw input (given to the peers as is) and gold are ``lines``; RETURNS
    a folder benchmark_peers.py has prepared it in (testsets.json), with no peer run."""
    files = get_corpus(TEST_SET)
    files.path(assets, "test_raw").parent.mkdir(parents=True, exist_ok=True)
    for field in ("test_raw", "test_gold"):
        files.path(assets, field).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    files.path(assets, "train_words").write_text("新华社\n北京\n", encoding="utf-8")
    prepared = assets.parent / "prepared"
    assert benchmark_peers(prepared, "--assets", assets, "--test-sets", TEST_SET, "--peers", "") == []
    return prepared


def run_worker(prepared: Path, label: str, kind: str, path: Optional[Path] = None) -> dict:
    """``python benchmarks/run.py``: the worker the harness starts for one peer,
    on the test set of ``prepared`` (write_test_set). RETURNS its "ok" record;
    skips the test when the peer's package is not installed."""
    result = prepared / "logs" / f"{label}.jsonl"
    result.parent.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, str(BENCHMARKS / "run.py"), "--label", label, "--kind", kind,
        "--test-sets", str(prepared / "testsets.json"), "--output-dir", str(prepared), "--result", str(result),
    ]
    if path is not None:
        command += ["--path", str(path)]
    _run(command)
    (record,) = _records(result)
    if record["status"] == "skipped" and "pip install" in record["reason"]:
        pytest.skip(record["reason"])
    assert record["status"] == "ok", record
    return record


def system_lines(prepared: Path, label: str) -> List[str]:
    """The system output the worker wrote for peer ``label``: one line per input
    line, words separated by one space."""
    return (prepared / "system" / label / f"{TEST_SET}.txt").read_text(encoding="utf-8").splitlines()


def _run(command: List[str], env: Optional[dict] = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"{' '.join(command)} exited with {done.returncode}:\n{done.stderr[-3000:]}"


def _records(path: Path) -> List[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
