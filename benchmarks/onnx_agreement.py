"""Do ONNX Runtime and torch give the same words? A pipeline's network run by
both backends over a prepared corpus's test input, in one run, one thread each.

    python benchmarks/onnx_agreement.py PIPELINE CORPUS_DIR [--threads 1] [--output-dir DIR] \\
        [--tables int8|int4|float16] [--matmuls float32|int8]

The pipeline's ONNX graph is exported first where it holds none, or with
--tables (``Segmenter.export_onnx``; with int8 or int4 tables torch then
reads the graph's rows, so compare a pipeline whose tables are not quantized
yet, e.g. a 0.4.x package, to see what quantized rows change), or with --matmuls (int8:
ONNX Runtime's dynamic int8 products by weights); the graph's other option
is then as the pipeline's graph was exported, else the default. torch runs the float32
inference copy (set_inference_precision("float32")). Each backend segments
the test input with nlp.pipe(batch_size=256) after a warm-up over the first
200 lines; the report gives per backend chars/s of that one pass, the
official SIGHAN F1 (perl-compatible, as ``evaluate``), and the number of
lines whose words differ from torch's. Both system outputs are written to
``--output-dir`` (torch.seg, onnxruntime.seg). Then, on ONNX Runtime, how
many lines' words differ between nlp(text) one line at a time and nlp.pipe
at batch sizes 8, 64 and 256. A measurement script, not a timed test.
"""
import sys
import time
from pathlib import Path

import spacy
import torch
import typer

from spacy_cws.backends.export_options import DEFAULT_MATMULS, DEFAULT_TABLES
from spacy_cws.corpora.evaluation_files import TEST_GOLD, TEST_INPUT, list_text_lines
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.scoring.sighan import score_files

BATCH_SIZE = 256
WARM_UP_LINES = 200
BACKENDS = ("torch", "onnxruntime")


def main(
    pipeline: str = typer.Argument(..., help="Installed package or folder of a gd_segmenter pipeline"),
    corpus_dir: Path = typer.Argument(
        ..., help="A prepared corpus folder (test_input.utf8, test_gold.utf8, train_words.txt)"
    ),
    threads: int = typer.Option(1, help="Threads of each backend (torch.set_num_threads, inference_threads)"),
    output_dir: Path = typer.Option(Path("onnx_agreement"), help="Where each backend's system output is written"),
    tables: str = typer.Option(
        "", help="Export the graph again with int8, int4 or float16 n-gram tables (default: the pipeline's graph)"
    ),
    matmuls: str = typer.Option(
        "",
        help="Export the graph again with float32 or int8 products by weights (default: the pipeline's graph; "
        "for int8-static, run export-onnx --calibration first and pass its folder)",
    ),
):
    if matmuls == "int8-static":
        raise typer.BadParameter(
            "int8-static needs calibration text: "
            "run export-onnx --matmuls int8-static --calibration FILE and pass its folder",
            param_hint="--matmuls",
        )
    torch.set_num_threads(threads)
    overrides = {"inference_backend": "torch", "inference_threads": threads}
    nlp = spacy.load(pipeline, config={"components": {"gd_segmenter": overrides}})
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.set_inference_precision("float32")
    exported = 0.0
    if tables or matmuls or not segmenter.has_graph:
        start = time.perf_counter()
        tables = tables or segmenter.cfg.get("onnx_tables", DEFAULT_TABLES)
        matmuls = matmuls or segmenter.cfg.get("onnx_matmuls", DEFAULT_MATMULS)
        segmenter.export_onnx(tables=tables, matmuls=matmuls)
        exported = time.perf_counter() - start
    lines = list_text_lines(corpus_dir / TEST_INPUT)
    n_chars = sum(map(len, lines))
    output_dir.mkdir(parents=True, exist_ok=True)
    words, rows = {}, []
    for backend in BACKENDS:
        segmenter.set_inference_backend(backend)
        list(nlp.pipe(lines[:WARM_UP_LINES], batch_size=BATCH_SIZE))
        start = time.perf_counter()
        docs = list(nlp.pipe(lines, batch_size=BATCH_SIZE))
        seconds = time.perf_counter() - start
        words[backend] = [system_line(doc) for doc in docs]
        system = output_dir / f"{backend}.seg"
        system.write_bytes("".join(line + "\n" for line in words[backend]).encode("utf-8"))
        f1 = score_files(corpus_dir / TEST_GOLD, system, corpus_dir / "train_words.txt", perl_compat=True).f1
        rows.append((backend, n_chars / seconds, f1))
    differing = sum(a != b for a, b in zip(words["torch"], words["onnxruntime"]))
    out = [
        f"`{pipeline}` on {corpus_dir / TEST_INPUT}: {len(lines):,} lines, {n_chars:,} characters, "
        f"{threads} thread(s), nlp.pipe(batch_size={BATCH_SIZE}); "
        f"graph exported in {exported:.1f} s ({tables} tables, {matmuls} products)"
        if exported
        else f"`{pipeline}` on {corpus_dir / TEST_INPUT}: {len(lines):,} lines, {threads} thread(s)",
        "",
        "| backend | chars/s | x torch float32 | F1 | lines whose words differ from torch float32 |",
        "|---|---:|---:|---:|---:|",
    ]
    for backend, speed, f1 in rows:
        diff = differing if backend != "torch" else 0
        out.append(f"| {backend} | {speed:,.0f} | {speed / rows[0][1]:.2f} | {100 * f1:.2f} | {diff}/{len(lines)} |")
    one_at_a_time = [system_line(nlp(line)) for line in lines]
    out += ["", "| nlp.pipe batch size (ONNX Runtime) | lines whose words differ from nlp(text) |", "|---:|---:|"]
    for batch_size in (8, 64, 256):
        batched = [system_line(doc) for doc in nlp.pipe(lines, batch_size=batch_size)]
        out.append(f"| {batch_size} | {sum(a != b for a, b in zip(one_at_a_time, batched))}/{len(lines)} |")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    typer.run(main)
