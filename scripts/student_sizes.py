"""How fast a smaller GD-Transformer would segment: the speed of untrained
pipelines of each size, next to the shipped pipeline and pkuseg, in one run.

    python scripts/student_sizes.py TRAIN_SPACY TEST_SEG [--pkuseg-trained DIR]
        [--output table.md]

Each variant is configs/cpu_lexicon.cfg with its model block changed (see
VARIANTS), initialized on TRAIN_SPACY with the same lexicons as the shipped recipe
(training words and jieba's dictionary), so its featurizing (lexicon matches,
trigram hashes) and Doc building cost what the shipped pipeline's do; only
the model differs. No n-gram vectors (their width is the shipped model's), so
the bigram table is CTB6's own: a smaller table, the same lookups. The weights are untrained, so the words are
wrong; the "shipped, untrained" row against the shipped (trained) pipeline
shows how far that moves the time. Every pipeline runs nlp.pipe(batch_size=256)
over TEST_SEG's text (spaces removed) on one torch thread in --precision ("auto": bfloat16 where the CPU has it, else float32), best of
``--repeats``. This answers issue 18's question of how small a distilled
student must be to reach pkuseg's pace; it trains nothing. A benchmark, not a
test: read the ratios, measured in the same run.
"""
from pathlib import Path
from typing import Dict, List, Optional

import spacy
import torch
import typer
from spacy.training.initialize import init_nlp
from spacy.util import load_config

from spacy_cws.benchmark.peers import load_pkuseg_trained
from spacy_cws.benchmark.run import best_seconds
from spacy_cws.models.wrapped_module import torch_module

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "cpu_lexicon.cfg"
# HiRED acts after layer depth // 2, so a 1-layer model has none.
NO_HIRED = {"hired": False, "highway_input": False, "highway_output": False}
# Model settings changed from cpu_lexicon.cfg's, per variant.
VARIANTS: Dict[str, dict] = {
    "shipped size, untrained (3 encoders x 2 layers, width 128)": {},
    "centre encoder only": {"encoders": ["centre"], "fusion": "sum"},
    "3 encoders, width 64 (ff 256)": {"width": 64, "ff_width": 256, "n_heads": 2},
    "3 encoders x 1 layer (no HiRED)": {"depth": 1, **NO_HIRED},
    "centre only, 1 layer, width 64": {"encoders": ["centre"], "fusion": "sum", "depth": 1, "width": 64, "ff_width": 256, "n_heads": 2, **NO_HIRED},
    "centre only, 1 layer, width 96": {"encoders": ["centre"], "fusion": "sum", "depth": 1, "width": 96, "ff_width": 384, "n_heads": 4, **NO_HIRED},
    "centre only, 1 layer, width 128": {"encoders": ["centre"], "fusion": "sum", "depth": 1, "width": 128, "ff_width": 512, "n_heads": 4, **NO_HIRED},
    "centre only, 2 layers, width 64 (no HiRED)": {"encoders": ["centre"], "fusion": "sum", "depth": 2, "width": 64, "ff_width": 256, "n_heads": 2, **NO_HIRED},
    "3 encoders x 1 layer, width 64": {"depth": 1, "width": 64, "ff_width": 256, "n_heads": 2, **NO_HIRED},
    "floor: centre only, 1 layer, width 16": {
        "encoders": ["centre"], "fusion": "sum", "depth": 1, "width": 16, "ff_width": 32, "n_heads": 2,
        "bigram_width": 16, "trigram_width": 8, **NO_HIRED,
    },
}


def untrained_pipeline(train: Path, model: dict):
    """cpu_lexicon.cfg with ``model`` settings, initialized on ``train`` (no training, no n-gram vectors)."""
    overrides = {
        "paths.train": str(train),
        "paths.dev": str(train),
        "paths.ngram_vectors": None,
        **{f"components.gd_segmenter.model.{key}": value for key, value in model.items()},
    }
    return init_nlp(load_config(CONFIG, overrides=overrides))


def torch_parameters(nlp) -> int:
    """The number of torch weights of the segmenter (embeddings included)."""
    return sum(parameter.numel() for parameter in torch_module(nlp.get_pipe("gd_segmenter").model).parameters())


def main(
    train: Path = typer.Argument(..., help="The training DocBin the variants initialize on (e.g. corpus/ctb6/train.spacy)."),
    test_seg: Path = typer.Argument(..., help="Segmented text whose characters are timed (e.g. ../shared/data/ctb6/test.seg)."),
    shipped: str = typer.Option("zh_cws_gd", "--shipped", help="The trained pipeline to compare with."),
    pkuseg_trained: Optional[Path] = typer.Option(None, "--pkuseg-trained", help="pkuseg retrained on CTB6 (spacy project run pkuseg)."),
    repeats: int = typer.Option(2, "--repeats", help="Timed runs per row; the best is kept."),
    only: List[str] = typer.Option([], "--only", help="Time only the variants whose name contains one of these (repeatable); all by default."),
    precision: str = typer.Option("auto", "--precision", help="The segmenter's precision for every row (float32, bfloat16 or auto)."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the markdown table here."),
):
    torch.set_num_threads(1)
    texts = ["".join(line.split()) for line in test_seg.read_text(encoding="utf-8").splitlines()]
    texts = [text for text in texts if text]
    characters = sum(map(len, texts))
    rows: List[tuple] = []

    def time_pipeline(name: str, nlp) -> None:
        nlp.get_pipe("gd_segmenter").cfg["precision"] = precision
        list(nlp.pipe(texts[:64]))  # warm-up: builds the inference copy
        seconds = best_seconds(lambda: list(nlp.pipe(texts, batch_size=256)), repeats)
        rows.append((name, f"{torch_parameters(nlp):,}", characters / seconds))
        print(rows[-1], flush=True)

    if pkuseg_trained:
        segment = load_pkuseg_trained(pkuseg_trained)
        seconds = best_seconds(lambda: segment(texts), repeats)
        rows.append(("pkuseg retrained on CTB6", "-", characters / seconds))
        print(rows[-1], flush=True)
    time_pipeline(f"{shipped} (trained)", spacy.load(shipped))
    for name, model in VARIANTS.items():
        if only and not any(part in name for part in only):
            continue
        time_pipeline(name, untrained_pipeline(train, model))
    reference = next((speed for name, _, speed in rows if name.startswith("pkuseg")), None)
    lines = ["| pipeline | torch weights | chars/s | x pkuseg-ctb6 |", "|---|---:|---:|---:|"]
    for name, weights, speed in rows:
        ratio = f"{speed / reference:.2f}" if reference else "-"
        lines.append(f"| {name} | {weights} | {speed:,.0f} | {ratio} |")
    table = "\n".join(lines)
    print(table)
    if output:
        output.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    typer.run(main)
