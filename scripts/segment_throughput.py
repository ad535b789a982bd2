"""Corpus-scale throughput of `python -m spacy_cws segment` per engine (issue 15).

    python scripts/segment_throughput.py metrics/throughput --input corpus/ctb6/test_input.utf8 --characters 10000000

Repeats the lines of INPUT until the corpus holds at least CHARACTERS
characters (newlines not counted), written as FILES files of about equal size
(a corpus is many files; Ray reads each file as one block, so one file would
keep all but one actor idle), then segments them once per run (default:
the local engine with 1 process, the local engine with ``--n-process 2`` and
the ray engine with 2 actors), each in its own ``segment`` process with one
torch thread per worker. For each run it records the wall time, characters
per second and the peak RSS of every process of the run (the command and all
its descendants: forked workers, Ray's raylet, GCS and actors), and it
compares every output with the first run's byte for byte. Writes
results.jsonl and table.md into OUTPUT_DIR. A benchmark, not a test: compare
the runs with each other; absolute figures depend on the machine's load.
"""
import filecmp
import itertools
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List

import typer

# Seconds between two samples of the process tree's peak RSS.
SAMPLE_SECONDS = 0.5


def build_corpus(source: Path, destinations: List[Path], characters: int) -> int:
    """Write ``source``'s non-empty lines, repeated in order, to ``destinations``
    in turn, about ``characters / len(destinations)`` characters in each, so
    that together they hold at least ``characters``. RETURNS the characters
    written (newlines not counted). RAISES ValueError if ``source`` has no text."""
    lines = [line for line in source.read_text(encoding="utf8").splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{source} holds no text lines")
    per_file = -(-characters // len(destinations))
    repeated = itertools.cycle(lines)
    written = 0
    for destination in destinations:
        in_file = 0
        with destination.open("w", encoding="utf8") as out:
            while in_file < per_file:
                line = next(repeated)
                out.write(line + "\n")
                in_file += len(line)
        written += in_file
    return written


def _children(pid: int) -> List[int]:
    """Direct children of ``pid``, from /proc (psutil is not a dependency)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(child) for child in handle.read().split()]
    except OSError:
        return []


def _peak_rss_mb(pid: int) -> float:
    """The kernel's peak resident set size (VmHWM) of ``pid`` in MB, 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class TreePeakRSS:
    """Samples the peak RSS of a process and of all its descendants while it runs.

    peaks: pid -> (command name, peak RSS MB), the largest value seen.
    """

    def __init__(self, pid: int):
        self.pid = pid
        self.peaks: Dict[int, tuple] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            pending = [self.pid]
            while pending:
                pid = pending.pop()
                pending.extend(_children(pid))
                peak = _peak_rss_mb(pid)
                if peak:
                    try:
                        name = Path(f"/proc/{pid}/comm").read_text().strip()
                    except OSError:
                        name = "?"
                    if peak > self.peaks.get(pid, ("", 0.0))[1]:
                        self.peaks[pid] = (name, peak)
            self._stop.wait(SAMPLE_SECONDS)

    def stop(self) -> Dict[int, tuple]:
        self._stop.set()
        self._thread.join()
        return self.peaks


def run_segment(corpus: List[Path], output: Path, model: str, engine: str, processes: int) -> dict:
    """One ``segment`` run. RETURNS its record (seconds, peak RSS per process).
    RAISES RuntimeError with the command's stderr if it fails."""
    command = [sys.executable, "-m", "spacy_cws", "segment", *map(str, corpus), "-o", str(output), "-m", model,
               "--engine", engine, "--n-process", str(processes)]
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    sampler = TreePeakRSS(process.pid)
    _, stderr = process.communicate()
    seconds = time.perf_counter() - start
    peaks = sampler.stop()
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{stderr[-2000:]}")
    processes_mb = sorted((round(mb, 1), name) for name, mb in peaks.values())
    return {"engine": engine, "processes": processes, "seconds": round(seconds, 1),
            "peak_rss_mb_by_process": [[name, mb] for mb, name in reversed(processes_mb)]}


def main(
    output_dir: Path = typer.Argument(..., help="Folder for the corpus files, the outputs, results.jsonl and table.md."),
    input_path: Path = typer.Option(..., "--input", help="Text file to repeat, one text a line."),
    characters: int = typer.Option(10_000_000, "--characters", help="Corpus size in characters (at least)."),
    model: str = typer.Option("zh_cws_gd", "--model", help="Pipeline name or path."),
    runs: str = typer.Option("local:1,local:2,ray:2", "--runs", help="Comma-separated ENGINE:PROCESSES runs."),
    files: int = typer.Option(8, "--files", min=1, help="Corpus files to write the text into."),
):
    """Time `segment` per engine on a repeated corpus and check the outputs are identical."""
    output_dir.mkdir(parents=True, exist_ok=True)
    corpus = [output_dir / f"corpus-{number:02d}.txt" for number in range(files)]
    written = build_corpus(input_path, corpus, characters)
    records = []
    for spec in runs.split(","):
        engine, processes = spec.split(":")
        output = output_dir / f"{engine}-{processes}.seg"
        record = run_segment(corpus, output, model, engine, int(processes))
        record["characters"] = written
        record["chars_per_second"] = round(written / record["seconds"])
        record["identical_to_first"] = filecmp.cmp(output, output_dir / f"{runs.split(',')[0].replace(':', '-')}.seg",
                                                   shallow=False)
        print(json.dumps(record, ensure_ascii=False), flush=True)
        records.append(record)
    with (output_dir / "results.jsonl").open("w", encoding="utf8") as out:
        out.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    rows = ["| engine | processes | characters | seconds | chars/s | peak RSS per process (MB) | output = first run |",
            "|---|---:|---:|---:|---:|---|---|"]
    for r in records:
        rss = ", ".join(f"{name} {mb:,.0f}" for name, mb in r["peak_rss_mb_by_process"] if mb >= 50)
        rows.append(f"| {r['engine']} | {r['processes']} | {r['characters']:,} | {r['seconds']:,.0f} | "
                    f"{r['chars_per_second']:,} | {rss} | {'yes' if r['identical_to_first'] else 'NO'} |")
    (output_dir / "table.md").write_text("\n".join(rows) + "\n", encoding="utf8")
    print("\n".join(rows))


if __name__ == "__main__":
    typer.run(main)
