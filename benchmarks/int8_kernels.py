"""Do a pipeline's int8 products give the model card's words on this CPU? Its
ONNX graph run by ONNX Runtime as shipped (int8 weights: the U8S8 kernel,
which saturates on x86 CPUs without VNNI) and with the weights as uint8
(the U8U8 kernel, exact everywhere: spacy_cws/backends/unsigned_weights.py),
over a prepared corpus's test input, in one run.

    python benchmarks/int8_kernels.py PIPELINE CORPUS_DIR [--rounds 3]

Reports per kernel the official SIGHAN scores (as ``evaluate``), the number
of lines whose words differ between the two, the model card's scores, and,
with --rounds N > 0, chars/s through nlp.pipe at one thread (best of N
rounds, the two alternating; time it with nothing else running). A
measurement script, not a timed test.
"""
import json
import time
from pathlib import Path

import spacy
import typer

from spacy_cws.backends import unsigned_weights
from spacy_cws.corpora.evaluation_files import TEST_GOLD, TEST_INPUT, list_text_lines
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.scoring.sighan import score_files

KERNELS = {"U8S8 (as shipped)": False, "U8U8 (unsigned weights)": True}
SCORES = ("f1", "precision", "recall", "oov_recall")


def loaded(pipeline: str, unsigned: bool):
    """The pipeline at one thread, its graph's weights rewritten or not (the
    network starts at the first Doc, so one is segmented under the choice)."""
    unsigned_weights.saturating_int8_products = lambda: unsigned
    nlp = spacy.load(pipeline, config={"components": {"gd_segmenter": {"inference_threads": 1}}})
    nlp("先把网络建好。")
    return nlp


def main(
    pipeline: str = typer.Argument(..., help="Installed package or folder of a gd_segmenter pipeline, int8 graph"),
    corpus_dir: Path = typer.Argument(..., help="A prepared corpus folder (test_input.utf8, test_gold.utf8, ...)"),
    rounds: int = typer.Option(3, help="Timed passes per kernel (0: words and scores only)"),
    output_dir: Path = typer.Option(Path("int8_kernels"), help="Where each kernel's system output is written"),
):
    lines = list_text_lines(corpus_dir / TEST_INPUT)
    output_dir.mkdir(parents=True, exist_ok=True)
    pipelines = {name: loaded(pipeline, unsigned) for name, unsigned in KERNELS.items()}
    report, words = {}, {}
    for name, nlp in pipelines.items():
        docs = list(nlp.pipe(lines, batch_size=256))
        words[name] = [[token.text for token in doc] for doc in docs]
        system = output_dir / f"{'unsigned' if KERNELS[name] else 'shipped'}.seg"
        system.write_bytes("".join(system_line(doc) + "\n" for doc in docs).encode("utf-8"))
        scores = score_files(corpus_dir / TEST_GOLD, system, corpus_dir / "train_words.txt").to_dict()
        report[name] = {key: round(100 * scores[key], 2) for key in SCORES}
    best = {name: float("inf") for name in pipelines}
    for _ in range(rounds):
        for name, nlp in pipelines.items():
            start = time.perf_counter()
            list(nlp.pipe(lines, batch_size=256))
            best[name] = min(best[name], time.perf_counter() - start)
    for name in pipelines:
        if rounds:
            report[name]["chars_per_second"] = round(sum(map(len, lines)) / best[name])
    first, second = (words[name] for name in KERNELS)
    card = pipelines[next(iter(KERNELS))].meta.get("spacy_cws_test_scores", {})
    report["lines_differing"] = sum(a != b for a, b in zip(first, second))
    report["model_card"] = {key: round(100 * card[key], 2) for key in SCORES if key in card}
    typer.echo(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    typer.run(main)
