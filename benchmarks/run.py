"""The benchmark harness: our pipelines and peer segmenters on the same test
files, scored with the official SIGHAN measures, timed, and measured for memory.

Steps (``benchmark``):

1. ``prepare_test_sets`` writes, for each catalogued test set, the input lines
   (the official raw test input where the corpus has one, else the gold words
   joined), the gold file and the training word list for the OOV measures,
   optionally cut to the first N lines, plus a manifest (testsets.json).
2. Each peer runs in its own worker process (``python benchmarks/run.py
   --label ...``, i.e. ``run_peer``), one after the other, so that one peer's
   memory, caches and thread settings cannot affect another's, and peak RSS
   is the peer's own. The worker loads the peer, then
   segments and scores every test set and writes one JSON record per test set
   (or one "skipped" record when the peer's package or model is missing).
3. All records go to results.jsonl; ``markdown_table`` summarises them.

Timing excludes loading (reported separately as load_seconds); the best of
``repeats`` runs is kept, and with ``rounds`` the best of that many turns
through all peers. Each worker sees ``threads`` for OMP/MKL/OpenBLAS
and torch; jieba, THULAC and pkuseg are single-threaded Python anyway.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from spacy_cws.corpora.catalog import CorpusFiles, get_corpus
from spacy_cws.corpora.evaluation_files import list_text_lines, test_input_and_gold
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.scoring.sighan import score_files

# Modules of benchmarks/, the folder Python puts first on sys.path for a script in it.
from memory import current_rss_mb, peak_rss_mb
from peers import get_peer, missing_model, missing_package, model_version

# Test sets in table order, with their relation to a model trained on CTB6
# (our pipelines and pkuseg retrained on CTB6); the off-the-shelf peers were
# trained on other data, so for them every column is "foreign".
TEST_SETS: Dict[str, str] = {
    "ctb6": "in-domain",
    "sxu": "cross-standard",  # SIGHAN 2008 SXU, its own segmentation standard
    "zx": "cross-domain",  # ZhuXian novel, annotated with the CTB guidelines
    "pku": "cross-standard",
    "msr": "cross-standard",
    "as": "cross-standard",  # Traditional Chinese, given to every system as is
    "cityu": "cross-standard",  # Traditional Chinese, given to every system as is
}
# The test set whose characters per second the table shows.
SPEED_TEST_SET = "ctb6"
# Lines segmented (untimed) after loading, so that lazy initialisation
# (first forward pass, caches) is not timed.
WARM_UP_LINES = 8
# Environment variables that cap the native thread pools (torch, numpy).
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@dataclass
class TestSet:
    """A prepared test set: files the workers read, and how they were made."""

    name: str
    relation: str
    input: str  # input lines, UTF-8, "\n"
    gold: str  # gold lines aligned with the input
    train_words: str  # training word list for the OOV measures
    input_from: str
    oov_words_from: str
    lines: int
    gold_words: int


@dataclass(frozen=True)
class PeerSpec:
    """One row of the benchmark: a label, a peer kind (peers.PEERS) and, for
    kinds that need one, a model path."""

    label: str
    kind: str
    path: Optional[str] = None
    # The interpreter of the peer's worker (e.g. a venv without torch, with
    # spacy-cws, its pipelines and the peers installed); None: this one.
    python: Optional[str] = None


def prepare_test_sets(
    names: Sequence[str], assets: Path, work_dir: Path, max_lines: Optional[int] = None
) -> Tuple[List[TestSet], List[dict]]:
    """Write the input, gold and training word files of each test set under
    work_dir/NAME/ and return them, with a "skipped" record for each test set
    whose files are missing from ``assets`` (catalog layout).

    max_lines: keep only the first N lines (for smoke runs; never for reported scores).
    """
    prepared, skipped = [], []
    for name in names:
        files = get_corpus(name)
        needed = ["test_raw" if files.test_raw else "test_gold", "test_gold"]
        needed.append("train_words" if files.train_words else "train")
        missing = [str(files.path(assets, field)) for field in needed if not files.path(assets, field).is_file()]
        if missing:
            skipped.append({"status": "skipped", "testset": name, "reason": f"missing files: {', '.join(missing)}"})
            continue
        folder = Path(work_dir) / name
        folder.mkdir(parents=True, exist_ok=True)
        inputs, gold_lines, input_from = test_input_and_gold(files, assets)
        inputs, gold_lines = inputs[:max_lines], gold_lines[:max_lines]
        _write_lines(folder / "input.txt", inputs)
        (folder / "gold.txt").write_bytes(b"".join(gold_lines))
        train_words, oov_words_from = _train_words(files, assets, folder)
        prepared.append(
            TestSet(
                name=name,
                relation=TEST_SETS.get(name, "other"),
                input=str(folder / "input.txt"),
                gold=str(folder / "gold.txt"),
                train_words=str(train_words),
                input_from=input_from,
                oov_words_from=oov_words_from,
                lines=len(inputs),
                # Decoded: SIGHAN AS separates words with U+3000, not ASCII spaces.
                gold_words=sum(len(line.decode("utf-8").split()) for line in gold_lines),
            )
        )
    return prepared, skipped


def _train_words(files: CorpusFiles, assets: Path, folder: Path) -> Tuple[Path, str]:
    """The training word list for OOV: the official one, else every word of the training file."""
    if files.train_words:
        return files.path(assets, "train_words"), f"official word list {files.train_words}"
    words = {word for sentence in read_segmented(files.path(assets, "train"), files.format) for word in sentence.words}
    path = folder / "train_words.txt"
    _write_lines(path, sorted(words))
    return path, f"all words of {files.train} ({len(words):,} types)"


def _write_lines(path: Path, lines: Sequence[str]) -> None:
    # Bytes, so the line end is "\n" on every platform.
    Path(path).write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))


def _set_threads(threads: int) -> Optional[int]:
    """Cap torch's intra-op threads where torch is already imported (else the
    environment variables the parent set cap it when it is); return torch's
    count, or None. Never imports torch: a peer that does not use it must
    not carry its memory."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    torch.set_num_threads(threads)
    return torch.get_num_threads()


def run_peer(
    spec: PeerSpec, test_sets: Sequence[TestSet], output_dir: Path, repeats: int = 1, threads: int = 1
) -> List[dict]:
    """Load one peer and segment, time and score every test set, in this process.

    RETURNS one "ok" record per test set, or a single "skipped" record when
    the peer's package or model folder is missing. System outputs go to
    output_dir/system/LABEL/TESTSET.txt (one line per input line, words
    separated by one space).
    """
    kind = get_peer(spec.kind)
    header = {"peer": spec.label, "kind": spec.kind, "path": spec.path, "python": spec.python or sys.executable}
    path = Path(spec.path) if spec.path else None
    reason = missing_package(kind) or missing_model(kind, path)
    if reason:
        return [{**header, "status": "skipped", "testset": None, "reason": reason}]
    torch_threads = _set_threads(threads)
    rss_baseline = current_rss_mb()
    start = time.perf_counter()
    segment = kind.load(path) if kind.needs_path else kind.load()
    load_seconds = time.perf_counter() - start
    rss_loaded = current_rss_mb()
    if test_sets:
        segment([line for line in list_text_lines(Path(test_sets[0].input)) if line.strip()][:WARM_UP_LINES])
    common = {
        **header,
        "status": "ok",
        "description": kind.description,
        "versions": {package: metadata.version(package) for _, package in kind.modules},
        "model_version": model_version(path),
        "load_seconds": load_seconds,
        "rss_baseline_mb": rss_baseline,
        "rss_loaded_mb": rss_loaded,
        "threads": threads,
        "torch_threads": torch_threads,
        "cpu_count": os.cpu_count(),
        "load_average_1m": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "repeats": repeats,
    }
    records = []
    for test_set in test_sets:
        lines = list_text_lines(Path(test_set.input))
        # Empty lines stay empty, unsegmented: there is nothing to time, and the
        # scorer skips lines whose gold line is empty.
        texts = [line for line in lines if line.strip()]
        seconds = math.inf
        for _ in range(repeats):
            start = time.perf_counter()
            words = segment(texts)
            seconds = min(seconds, time.perf_counter() - start)
        by_text = iter(words)
        # " ".join(...).split() drops whitespace tokens and splits any word
        # holding whitespace, so the scorer sees words separated by one space.
        outputs = [" ".join(" ".join(next(by_text)).split()) if line.strip() else "" for line in lines]
        system = Path(output_dir) / "system" / spec.label / f"{test_set.name}.txt"
        system.parent.mkdir(parents=True, exist_ok=True)
        _write_lines(system, outputs)
        characters = sum(len(text) for text in texts)
        # A segmenter must not change the characters; count lines where it did.
        altered = sum("".join(out.split()) != "".join(line.split()) for out, line in zip(outputs, lines))
        records.append(
            {
                **common,
                "testset": test_set.name,
                "relation": test_set.relation,
                "lines": test_set.lines,
                "characters": characters,
                # Official (Perl) pairing: a peer that alters characters is
                # scored as the Perl script scores it, and counted in altered_lines.
                **score_files(test_set.gold, system, test_set.train_words, perl_compat=True).to_dict(),
                "oov_words_from": test_set.oov_words_from,
                "seconds": seconds,
                "chars_per_second": characters / seconds if seconds else None,
                "peak_rss_mb": peak_rss_mb(),
                "torch_imported": "torch" in sys.modules,
                "altered_lines": altered,
                "system_output": str(system),
            }
        )
    return records


def benchmark(
    specs: Sequence[PeerSpec],
    test_set_names: Sequence[str],
    assets: Path,
    output_dir: Path,
    max_lines: Optional[int] = None,
    repeats: int = 1,
    threads: int = 1,
    rounds: int = 1,
) -> List[dict]:
    """Run every peer in its own worker process on the same prepared test sets.

    rounds: how many times every peer runs, one after the other, in turn; a
        peer's record per test set is that of its fastest round. A busy
        stretch of a shared host then slows one round of every peer, not
        every run of one peer: the ratios between peers are what counts.
    Writes output_dir/results.jsonl (every record, skips and errors included)
    and output_dir/table.md, and RETURNS the records. A worker that fails
    gives an "error" record with the end of its log (output_dir/logs/LABEL.log).
    """
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    test_sets, records = prepare_test_sets(test_set_names, assets, output_dir / "testsets", max_lines)
    manifest = output_dir / "testsets.json"
    manifest.write_text(json.dumps([asdict(t) for t in test_sets], ensure_ascii=False, indent=2), encoding="utf-8")
    env = {**os.environ, **{name: str(threads) for name in THREAD_VARIABLES}}
    (output_dir / "logs").mkdir(parents=True, exist_ok=True)
    fastest: Dict[Tuple[str, Optional[str]], dict] = {}
    for _ in range(rounds):
        for spec in specs:
            for record in _run_worker(spec, manifest, output_dir, repeats, threads, env):
                key = (record["peer"], record["testset"])
                if key not in fastest or _speed(record) > _speed(fastest[key]):
                    fastest[key] = {**record, "rounds": rounds}
    records.extend(fastest.values())
    (output_dir / "results.jsonl").write_text(
        "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8"
    )
    (output_dir / "table.md").write_text(markdown_table(records, test_sets), encoding="utf-8")
    return records


def _speed(record: dict) -> float:
    """A record's chars/s (0 for a skip or an error, so any run that worked wins)."""
    return record.get("chars_per_second") or 0.0


def _run_worker(spec: PeerSpec, manifest: Path, output_dir: Path, repeats: int, threads: int, env: dict) -> List[dict]:
    """One worker process for ``spec`` (run.py's own command line); RETURNS its
    records, or one "error" record with the end of its log."""
    result = output_dir / "logs" / f"{spec.label}.jsonl"
    log = output_dir / "logs" / f"{spec.label}.log"
    command = [
        spec.python or sys.executable, str(Path(__file__).with_name("run.py")),
        "--label", spec.label, "--kind", spec.kind, "--test-sets", str(manifest),
        "--output-dir", str(output_dir), "--repeats", str(repeats), "--threads", str(threads),
        "--result", str(result),
    ]
    if spec.path:
        command += ["--path", spec.path]
    print(f"[benchmark] {spec.label} ({spec.kind})", file=sys.stderr, flush=True)
    with log.open("wb") as log_file:
        returncode = subprocess.run(command, env=env, stdout=log_file, stderr=subprocess.STDOUT).returncode
    if returncode == 0:
        return [json.loads(line) for line in result.read_text(encoding="utf-8").splitlines()]
    tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
    return [{"peer": spec.label, "kind": spec.kind, "path": spec.path, "status": "error",
             "testset": None, "reason": f"worker exited with {returncode}: {tail}"}]


def _percent(value: Optional[float]) -> str:
    return "--" if value is None else f"{100 * value:.2f}"


def markdown_table(records: Sequence[dict], test_sets: Sequence[TestSet]) -> str:
    """A Markdown summary: one row per peer; per test set F1 / OOV recall (in %);
    chars/s on the speed test set, load time and memory; then the notes that
    say what each column means (relation, input, OOV word list, sizes)."""
    names = [t.name for t in test_sets]
    speed_set = SPEED_TEST_SET if SPEED_TEST_SET in names else (names[0] if names else None)
    ok = [r for r in records if r["status"] == "ok"]
    peers = list(dict.fromkeys(r["peer"] for r in ok))
    header = ["peer"] + [f"{t.name} ({t.relation})" for t in test_sets]
    header += [f"chars/s ({speed_set})", "load s", "RSS after load MB", "peak RSS MB", "torch imported"]
    rows = [header, ["---"] + ["---:"] * (len(header) - 1)]
    for peer in peers:
        by_set = {r["testset"]: r for r in ok if r["peer"] == peer}
        first = next(iter(by_set.values()))
        speed = by_set.get(speed_set, {}).get("chars_per_second")
        row = [peer]
        row += [
            f"{_percent(by_set[n]['f1'])} / {_percent(by_set[n]['oov_recall'])}" if n in by_set else "--" for n in names
        ]
        row += [
            "--" if speed is None else f"{speed:,.0f}",
            f"{first['load_seconds']:.1f}",
            "--" if first["rss_loaded_mb"] is None else f"{first['rss_loaded_mb']:,.0f}",
            "--" if first["peak_rss_mb"] is None else f"{max(r['peak_rss_mb'] for r in by_set.values()):,.0f}",
            "yes" if any(r.get("torch_imported") for r in by_set.values()) else "no",
        ]
        rows.append(row)
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "Cells: official SIGHAN F1 / OOV recall, in %. Relations are to a model trained on CTB6 "
              "(our pipelines, pkuseg retrained on CTB6); the off-the-shelf peers were trained on other data."]
    for t in test_sets:
        lines.append(f"- {t.name}: {t.lines:,} lines, {t.gold_words:,} gold words; input: {t.input_from}; "
                     f"OOV words: {t.oov_words_from}.")
    if ok:
        first = ok[0]
        rounds = first.get("rounds", 1)
        in_rounds = f" in each of {rounds} rounds (every peer in turn, the fastest round kept)" if rounds > 1 else ""
        lines.append(
            f"- Speed: characters per second of segmentation after loading, "
            f"best of {first['repeats']} runs{in_rounds}; "
            f"each peer in its own process with {first['threads']} thread(s) (torch: {first['torch_threads']}), "
            f"{first['cpu_count']} CPUs. Load: the peer's loader, after the worker's imports; a spacy-cws "
            f"pipeline's includes its first text (the network is built on first use). RSS includes the "
            f"worker's own imports (Python, spaCy; torch where imported)."
        )
    for peer in peers:
        first = next(r for r in ok if r["peer"] == peer)
        altered = sum(r["altered_lines"] for r in ok if r["peer"] == peer)
        note = f"; {altered} lines with changed characters" if altered else ""
        lines.append(f"- {peer}: {first['description']}{' (' + first['path'] + ')' if first['path'] else ''}{note}.")
    for record in records:
        if record["status"] != "ok":
            what = record.get("peer") or record.get("testset")
            lines.append(f"- {record['status'].upper()} {what}: {record['reason']}")
    return "\n".join(lines) + "\n"


def _worker(argv: Optional[Sequence[str]] = None) -> None:
    """The worker process: run one peer (run_peer) and write its records as JSON lines."""
    parser = argparse.ArgumentParser(description="Benchmark worker: one peer on the prepared test sets.")
    parser.add_argument("--label", required=True)
    parser.add_argument("--kind", required=True)
    parser.add_argument("--path")
    parser.add_argument("--test-sets", required=True, type=Path, help="testsets.json written by benchmark()")
    parser.add_argument("--output-dir", required=True, type=Path)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--result", required=True, type=Path, help="JSON lines file to write")
    args = parser.parse_args(argv)
    test_sets = [TestSet(**item) for item in json.loads(args.test_sets.read_text(encoding="utf-8"))]
    spec = PeerSpec(args.label, args.kind, args.path)
    records = run_peer(spec, test_sets, args.output_dir, args.repeats, args.threads)
    args.result.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


if __name__ == "__main__":
    _worker()
