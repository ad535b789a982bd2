"""The benchmark's committed summary, metrics/benchmark.json: every figure README's tables show, from one run.

    python benchmarks/summary.py metrics/benchmark metrics/benchmark.json   # from a run's folder

``benchmark_peers.py --summary PATH`` writes it at the end of a run; this command
writes it again from a run's folder (results.jsonl and testsets.json).
``scripts/render_readme_tables.py`` renders README's tables from it.

The file holds:

- ``run``: when and where the run was made (UTC date, CPU, cores, threads,
  repeats, rounds, the highest 1-minute load average a worker saw), and its command;
- ``test_sets``: per test set its relation to CTB6, lines, characters and gold words;
- ``peers``: per peer label (e.g. ``zh_cws_gd``, ``zh_cws_gd-segment``) its kind,
  versions, model version, load seconds, RSS after load and peak RSS (MB), and per
  test set the official SIGHAN precision, recall, F1, OOV rate, OOV and IV recall
  (fractions) and characters per second;
- ``not_run``: the peers and test sets that were skipped or failed, with the reason.
"""
import json
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import List, Optional, Sequence

RATES = ("precision", "recall", "f1", "oov_rate", "oov_recall", "iv_recall")


def summarize(records: Sequence[dict], test_sets: Sequence[dict], command: str, date: Optional[str] = None) -> dict:
    """The summary of one run's records (results.jsonl) and prepared test sets (testsets.json).

    date: the run's UTC date (default: now).
    """
    ok = [record for record in records if record["status"] == "ok"]
    characters = {record["testset"]: record["characters"] for record in ok}
    peers = {}
    for record in ok:
        peer = peers.setdefault(record["peer"], _peer(record))
        figures = {name: _round(record[name], 6) for name in RATES}
        figures["chars_per_second"] = _round(record["chars_per_second"], 0)
        figures["altered_lines"] = record["altered_lines"]
        peer["test_sets"][record["testset"]] = figures
        peer["peak_rss_mb"] = max(peer["peak_rss_mb"] or 0, _round(record["peak_rss_mb"], 1) or 0) or None
        peer["torch_imported"] = peer["torch_imported"] or record["torch_imported"]
    return {
        "run": {
            "command": command,
            "date": date or datetime.now(timezone.utc).strftime("%Y-%m-%d"),
            "cpu": _cpu_name(),
            "cpu_count": ok[0]["cpu_count"] if ok else None,
            "threads": ok[0]["threads"] if ok else None,
            "repeats": ok[0]["repeats"] if ok else None,
            "rounds": ok[0].get("rounds", 1) if ok else None,
            "max_load_average_1m": max((r["load_average_1m"] or 0 for r in ok), default=None),
        },
        "test_sets": {
            t["name"]: {
                "relation": t["relation"],
                "lines": t["lines"],
                "characters": characters.get(t["name"]),
                "gold_words": t["gold_words"],
            }
            for t in test_sets
        },
        "peers": peers,
        "not_run": [
            {"what": r.get("peer") or r.get("testset"), "status": r["status"], "reason": r["reason"]}
            for r in records
            if r["status"] != "ok"
        ],
    }


def _peer(record: dict) -> dict:
    return {
        "kind": record["kind"],
        "path": record["path"],
        "description": record["description"],
        "versions": record["versions"],
        "model_version": record.get("model_version"),
        "load_seconds": _round(record["load_seconds"], 2),
        "rss_loaded_mb": _round(record["rss_loaded_mb"], 1),
        "peak_rss_mb": None,
        "torch_imported": False,
        "test_sets": {},
    }


def _round(value: Optional[float], digits: int):
    if value is None:
        return None
    return int(round(value)) if digits == 0 else round(value, digits)


def _cpu_name() -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what platform says."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or platform.machine()


def write_summary(summary: dict, path: Path) -> None:
    """Write ``summary`` as indented JSON (stable key order, so a re-run's diff is its figures)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _read_jsonl(path: Path) -> List[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(argv: Sequence[str]) -> None:
    """``summary.py RUN_DIR OUTPUT``: RUN_DIR's results.jsonl and testsets.json -> OUTPUT.
    A missing file is one line naming it, exit 1."""
    if len(argv) != 2:
        sys.exit("usage: python benchmarks/summary.py RUN_DIR OUTPUT_JSON")
    run_dir, output = Path(argv[0]), Path(argv[1])
    for name in ("results.jsonl", "testsets.json"):
        if not (run_dir / name).is_file():
            sys.exit(f"{run_dir / name} not found: give the folder of a benchmark_peers.py run")
    records = _read_jsonl(run_dir / "results.jsonl")
    test_sets = json.loads((run_dir / "testsets.json").read_text(encoding="utf-8"))
    date = datetime.fromtimestamp((run_dir / "results.jsonl").stat().st_mtime, timezone.utc).strftime("%Y-%m-%d")
    command = f"python benchmarks/benchmark_peers.py {run_dir} ... (converted by benchmarks/summary.py)"
    write_summary(summarize(records, test_sets, command=command, date=date), output)
    print(f"wrote {output}")


if __name__ == "__main__":
    main(sys.argv[1:])
