"""Peak memory and time of ``python -m spacy_cws segment`` on large inputs made from CTB6 test.

    python benchmarks/segment_memory.py PIPELINE ../shared/data/ctb6/test.seg [--python PY] [--work-dir DIR]

Runs, each in its own process under PY (e.g. a venv without torch):
segment over one line of 1,000,000 characters, over 100,000 lines (CTB6
test's lines repeated), and over the same 100,000 lines with --n-process 2.
The peak is the largest total RSS of the process and its workers, sampled
from /proc every 20 ms (Linux). Prints a Markdown table. A measurement
script, not a timed test.
"""
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

LONG_LINE_CHARS = 1_000_000
MANY_LINES = 100_000
SAMPLE_SECONDS = 0.02


def tree_rss_mb(pid: int) -> float:
    """The VmRSS of ``pid`` and all its descendants, in MB (0 for a process that has gone)."""
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")) / 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                stack += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return total


def peak_of(command: List[str]) -> tuple:
    """Run ``command``; RETURNS (seconds, peak total RSS in MB). RAISES RuntimeError if it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, tree_rss_mb(process.pid))
        time.sleep(SAMPLE_SECONDS)
    seconds = time.perf_counter() - start
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
    return seconds, peak


def main(
    pipeline: str = typer.Argument(..., help="Installed package or folder of a segmenter pipeline"),
    test_seg: Path = typer.Argument(..., help="CTB6 test.seg (words separated by spaces); its text is repeated"),
    python: Optional[str] = typer.Option(None, help="The python that runs segment (default: this one)"),
    work_dir: Path = typer.Option(Path("segment_memory"), help="Where the inputs and outputs are written"),
):
    lines = ["".join(line.split()) for line in test_seg.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = "".join(lines)
    work_dir.mkdir(parents=True, exist_ok=True)
    long_line = work_dir / "one_line.txt"
    long_line.write_text((text * (LONG_LINE_CHARS // len(text) + 1))[:LONG_LINE_CHARS] + "\n", encoding="utf-8")
    many = work_dir / "many_lines.txt"
    many.write_text("".join(lines[i % len(lines)] + "\n" for i in range(MANY_LINES)), encoding="utf-8")
    runs = [
        ("one line of 1,000,000 characters", long_line, []),
        (f"{MANY_LINES:,} lines", many, []),
        (f"{MANY_LINES:,} lines, --n-process 2", many, ["--n-process", "2"]),
    ]
    out = [
        f"`segment` with `{pipeline}` ({python or sys.executable}), peak total RSS of the process and its workers",
        "",
        "| input | characters | seconds | chars/s | peak RSS MB |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, path, options in runs:
        command = [python or sys.executable, "-m", "spacy_cws", "segment", str(path), "-o", str(work_dir / "out.txt")]
        command += ["--model", pipeline, *options]
        seconds, peak = peak_of(command)
        characters = sum(len(line) for line in path.read_text(encoding="utf-8").splitlines())
        out.append(f"| {name} | {characters:,} | {seconds:.1f} | {characters / seconds:,.0f} | {peak:,.0f} |")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    typer.run(main)
