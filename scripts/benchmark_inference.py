"""Issue 18's inference table: a segmentation pipeline against peers measured in the same run.

    python scripts/benchmark_inference.py OUTPUT_DIR --assets ../shared/data \\
        --pipeline zh_cws_gd [--precision float32 --precision bfloat16] \\
        [--pkuseg-trained training/pkuseg-ctb6] [--pkuseg-mixed assets/pkuseg_mixed] \\
        [--sizes 10000,100000,1000000] [--stream-lines 100000] [--half-weights]

1. Speed and F1 on the CTB6 test text (spacy_cws.benchmark.run: each peer in
   its own process, official SIGHAN scores): the pipeline (through nlp.pipe,
   and as ``segment`` runs it, without Docs) saved once per
   precision, with ``batch_units`` (so the settings are read from the saved
   config; zh_cws_gd 0.1.0's own config has batch_units 16384), THULAC, jieba and
   whichever pkuseg models are given, at 1 and 2 threads; the pipeline also
   through nlp.pipe(n_process=2) with 1 torch thread per process, and as
   ``segment --n-process 2`` runs it (workers return word offsets). Every
   chars/s is also given as a ratio to THULAC of the same table.
2. Time per character and peak RSS for one document of each of ``sizes``
   characters (scripts/benchmark_speed.py --long-document, a fresh process
   each, 1 thread).
3. Peak RSS of ``python -m spacy_cws segment`` over ``stream_lines`` lines of
   100 characters, and over one line of the largest of ``sizes`` characters.
The precisions are float32, and bfloat16 on a CPU with native bfloat16
(AVX512-BF16 or AMX), unless given; the table's first line names the CPU.
Writes OUTPUT_DIR/inference.md and prints it. Timings on a shared machine
are noisy: read the ratios, which come from one run.
"""
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

import spacy
import typer

from spacy_cws.benchmark.run import PeerSpec, benchmark, long_document, proc_status_mb
from spacy_cws.cli.half_precision import halve_torch_weights
from spacy_cws.models.inference import native_bfloat16

SCRIPTS = Path(__file__).resolve().parent
REFERENCE_PEER = "thulac"


def save_with_precision(pipeline: str, precision: str, batch_units: int, output: Path, half: bool) -> Path:
    """The pipeline saved with gd_segmenter's precision and batch_units set
    (config settings), its weights stored as float16 if ``half`` (as the
    shipped pipelines store them: loading, and so its memory, is theirs)."""
    settings = {"precision": precision, "batch_units": batch_units}
    nlp = spacy.load(pipeline, config={"components": {"gd_segmenter": settings}})
    if half:
        halve_torch_weights(nlp)
    output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    return output


def cpu_name() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else platform.processor()."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def child_peak_rss_mb(command: List[str], env: dict) -> float:
    """Run ``command`` (stdout discarded) and RETURN its peak RSS in MiB: its
    VmHWM, read every 20 ms while it runs (the last reading before it exits),
    because os.wait4's ru_maxrss would include this process's own peak (Linux
    keeps it across fork and exec). Where /proc cannot be read, the largest
    peak of this process's children so far (getrusage).
    RAISES subprocess.CalledProcessError: if the command fails."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    peak = None
    while process.poll() is None:
        reading = proc_status_mb(str(process.pid), "VmHWM")
        peak = reading if reading is not None else peak
        time.sleep(0.02)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    # Without /proc: the largest of this process's children so far.
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def speed_rows(records: List[dict], threads: str) -> List[str]:
    """Table rows with each speed as a ratio to THULAC's and pkuseg-ctb6's in the same run ("--" if absent)."""
    ok = [r for r in records if r["status"] == "ok" and r["testset"] == "ctb6"]
    rows = []
    for r in ok:
        ratios = []
        for peer in (REFERENCE_PEER, "pkuseg-ctb6"):
            reference = next((o["chars_per_second"] for o in ok if o["peer"] == peer), None)
            ratios.append(f"{r['chars_per_second'] / reference:.2f}" if reference else "--")
        rows.append(
            f"| {r['peer']} | {threads} | {r['chars_per_second']:,.0f} | {' | '.join(ratios)} | {100 * r['f1']:.2f} "
            f"| {r['rss_loaded_mb']:,.0f} | {r['peak_rss_mb']:,.0f} |"
        )
    return rows


def main(
    output_dir: Path = typer.Argument(..., help="Folder for the pipelines, results and inference.md."),
    assets: Path = typer.Option(Path("assets"), "--assets", help="Corpus folder in the catalog layout."),
    pipeline: str = typer.Option("zh_cws_gd", "--pipeline", help="Pipeline name or path."),
    precision: Optional[List[str]] = typer.Option(
        None, "--precision", help="Precisions to time; repeatable (default: float32, and bfloat16 where the CPU has it natively)."
    ),
    batch_units: int = typer.Option(2048, "--batch-units", help="gd_segmenter batch_units of the saved pipelines."),
    pkuseg_trained: Optional[Path] = typer.Option(None, "--pkuseg-trained", help="pkuseg retrained on CTB6 (scripts/train_pkuseg.py)."),
    pkuseg_mixed: Optional[Path] = typer.Option(None, "--pkuseg-mixed", help="pkuseg's pretrained mixed model folder."),
    sizes: str = typer.Option("10000,100000,1000000", "--sizes", help="Document sizes (characters) for time per character."),
    stream_lines: int = typer.Option(100000, "--stream-lines", help="Lines of 100 characters through `segment` (0: skip)."),
    repeats: int = typer.Option(1, "--repeats", help="Timed runs per measurement; the best is kept."),
    threads: str = typer.Option("1,2", "--threads", help="Thread counts of the speed tables."),
    two_processes: bool = typer.Option(True, "--n-process/--no-n-process", help="Also time nlp.pipe(n_process=2) and segment's 2 processes."),
    half_weights: bool = typer.Option(False, "--half-weights", help="Store the saved copies' weights as float16, as the shipped pipelines do."),
):
    output_dir.mkdir(parents=True, exist_ok=True)
    # Emulated bfloat16 is about 20x slower than float32: timed only when asked for.
    precision = precision or (["float32", "bfloat16"] if native_bfloat16() else ["float32"])
    saved = {p: save_with_precision(pipeline, p, batch_units, output_dir / "pipelines" / p, half_weights) for p in precision}
    peers = [PeerSpec("thulac", "thulac"), PeerSpec("jieba", "jieba")]
    if pkuseg_trained:
        peers.append(PeerSpec("pkuseg-ctb6", "pkuseg-trained", str(pkuseg_trained)))
    if pkuseg_mixed:
        peers.append(PeerSpec("pkuseg-mixed", "pkuseg-mixed", str(pkuseg_mixed)))
    ours = [PeerSpec(f"{pipeline}-{p}", "pipeline", str(path)) for p, path in saved.items()]
    ours += [PeerSpec(f"{pipeline}-{p}-segment", "segment", str(path)) for p, path in saved.items()]
    lines = [
        f"CPU: {cpu_name()}; native bfloat16: {'yes' if native_bfloat16() else 'no'}.",
        "",
        "| segmenter | threads | chars/s | x THULAC | x pkuseg-ctb6 | CTB6 F1 | RSS after load MB | peak RSS MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for count in (int(t) for t in threads.split(",")):
        folder = output_dir / f"threads-{count}"
        records = benchmark(peers + ours, ["ctb6"], assets, folder, repeats=repeats, threads=count)
        lines += speed_rows(records, str(count))
    if two_processes:
        forked = [PeerSpec(f"{pipeline}-{p}-2proc", "pipeline-2proc", str(path)) for p, path in saved.items()]
        forked += [PeerSpec(f"{pipeline}-{p}-segment-2proc", "segment-2proc", str(path)) for p, path in saved.items()]
        records = benchmark(peers[:1] + forked, ["ctb6"], assets, output_dir / "n_process-2", repeats=repeats, threads=1)
        lines += speed_rows(records, "1 x n_process=2")
    test_input = folder / "testsets" / "ctb6" / "input.txt"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    lines += ["", "| precision | characters | seconds | microseconds/char | peak RSS MB | RSS after warm-up MB |", "|---|---:|---:|---:|---:|---:|"]
    for p, path in saved.items():
        for size in (int(s) for s in sizes.split(",")):
            result = subprocess.run(
                [sys.executable, str(SCRIPTS / "benchmark_speed.py"), str(path), str(test_input), "--batch-size", "0",
                 "--long-document", str(size), "--repeats", str(repeats), "--threads", "1"],
                env=env, capture_output=True, text=True, check=True,
            )
            record = json.loads(result.stdout.strip().splitlines()[-1])
            lines.append(
                f"| {p} | {record['characters']:,} | {record['seconds']:.2f} | {1e6 * record['seconds'] / record['characters']:.1f} "
                f"| {record['peak_rss_mb']:,.0f} | {record['rss_mb_after_warm_up']:,.0f} |"
            )
    if stream_lines:
        texts = [line.strip() for line in test_input.read_text(encoding="utf-8").splitlines() if line.strip()]
        joined = "".join(texts)
        stream = output_dir / "stream.txt"
        with stream.open("w", encoding="utf-8") as handle:
            for i in range(stream_lines):
                start = (i * 100) % (len(joined) - 100)
                handle.write(joined[start : start + 100] + "\n")
        longest = max(int(s) for s in sizes.split(","))
        long_line = output_dir / "long_line.txt"
        long_line.write_text(long_document(texts, longest) + "\n", encoding="utf-8")
        lines += [
            "",
            f"| precision | `segment` over {stream_lines:,} lines of 100 characters: peak RSS MB "
            f"| `segment` over one line of {longest:,} characters: peak RSS MB |",
            "|---|---:|---:|",
        ]
        for p, path in saved.items():
            peaks = [
                child_peak_rss_mb([sys.executable, "-m", "spacy_cws", "segment", str(text_file), "--model", str(path)], env)
                for text_file in (stream, long_line)
            ]
            lines.append(f"| {p} | {peaks[0]:,.0f} | {peaks[1]:,.0f} |")
    table = "\n".join(lines) + "\n"
    (output_dir / "inference.md").write_text(table, encoding="utf-8")
    typer.echo(table)


if __name__ == "__main__":
    typer.run(main)
