"""The MWA experiments (docs/experiments/mwa.md): with/without over seeds, and the source ablation.

    python scripts/mwa_experiments.py with-without WITH WITHOUT CORPUS_DIR --name resume [--seeds 0,1,2]
        [--metric ents_f] [--sources jieba+thulac+pkuseg --pkuseg-model DIR] [--train] [--output table.md]
        [extra spacy train options]
    python scripts/mwa_experiments.py sources CORPUS_DIR --name resume-sources --pkuseg-model DIR
        [--config mwa_ner] [--seed 0] [--metric ents_f] [--train] [--output table.md] [extra options]

with-without: train and score a config pair over several seeds and tabulate
the difference.
--sources replaces the WITH config's segmentation sources (names joined
by "+", from characters, jieba, thulac, pkuseg; "characters" makes each
character its own word: the control without word information); extra
options go to both configs, --with-option SECTION.KEY=VALUE to WITH's alone.
WITH and WITHOUT are config names under configs/ (e.g. mwa_ner and
char_ner); CORPUS_DIR holds train.spacy, dev.spacy and test.spacy (from
convert-ner / convert-sentiment). For each config and seed the pipeline is
training/NAME/CONFIG-sSEED/model-best and its test scores
metrics/NAME/CONFIG-sSEED.json (``spacy evaluate``). With --train, runs
whose metrics file is missing are trained and evaluated first (one after
another; each is a plain ``spacy train`` + ``spacy evaluate``).

Prints a Markdown table: the metric per seed with and without, their
difference, and the mean and sample standard deviation of each column
(metric values x 100). ents_f is entity F1; for textcat with exclusive
classes cats_micro_f is accuracy (micro-F1 of single-label predictions).
"""
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import typer
from spacy.util import load_config

app = typer.Typer(add_completion=False)


def run_paths(name: str, run: str):
    """(pipeline folder, metrics JSON) of one run."""
    return Path("training") / name / run, Path("metrics") / name / f"{run}.json"


def train_and_evaluate(config: str, seed: int, name: str, run: str, corpus: Path, extra: List[str]) -> None:
    """spacy train CONFIG (seed, extra overrides) and spacy evaluate on CORPUS/test.spacy."""
    output, metrics = run_paths(name, run)
    train = [sys.executable, "-m", "spacy", "train", f"configs/{config}.cfg", "--output", str(output),
             "--paths.train", str(corpus / "train.spacy"), "--paths.dev", str(corpus / "dev.spacy"),
             "--system.seed", str(seed), *extra]
    subprocess.run(train, check=True)
    metrics.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(output / "model-best"),
                    str(corpus / "test.spacy"), "--output", str(metrics)], check=True)


def summary(values: List[float]) -> str:
    """mean ± sample standard deviation (one value: the value)."""
    if len(values) < 2:
        return f"{values[0]:.2f}"
    return f"{statistics.mean(values):.2f} ± {statistics.stdev(values):.2f}"


def score(name: str, run: str, metric: str) -> float:
    """The run's test ``metric`` x 100."""
    return 100 * json.loads(run_paths(name, run)[1].read_text())[metric]


EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("with-without", context_settings=EXTRA)
def with_without(
    ctx: typer.Context,
    with_config: str = typer.Argument(..., help="Config name with the component, e.g. mwa_ner."),
    without_config: str = typer.Argument(..., help="Config name without it, e.g. char_ner."),
    corpus: Path = typer.Argument(..., help="Folder with train.spacy, dev.spacy, test.spacy."),
    name: str = typer.Option(..., "--name", help="Run group: training/NAME and metrics/NAME."),
    seeds: str = typer.Option("0,1,2", "--seeds", help="Comma-separated seeds."),
    metric: str = typer.Option("ents_f", "--metric", help="Score key in the metrics JSON."),
    train: bool = typer.Option(False, "--train", help="Train and evaluate the runs whose metrics are missing."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the table here."),
    sources: Optional[str] = typer.Option(None, "--sources", help="Replace WITH's sources, e.g. jieba+thulac+pkuseg."),
    pkuseg_model: Optional[str] = typer.Option(
        None, "--pkuseg-model", help="Local spacy-pkuseg model folder, for --sources with pkuseg."
    ),
    without_name: Optional[str] = typer.Option(
        None, "--without-name", help="Run group of the WITHOUT runs (default: --name), to share them between tables."
    ),
    with_options: List[str] = typer.Option(
        [], "--with-option", help="A config override for WITH's runs only, SECTION.KEY=VALUE (repeat)."
    ),
):
    """WITH and WITHOUT over the same seeds: test metric per seed, the
    difference, and the mean ± sd of each column."""
    seeds = [int(seed) for seed in seeds.split(",")]
    with_extra = (
        [] if sources is None else ["--components.mwa_enricher.sources", json.dumps(source_set(sources, pkuseg_model))]
    )
    for option in with_options:
        key, _, value = option.partition("=")
        with_extra += [f"--{key}", value]
    for seed in seeds:
        ensure_run(with_config, seed, name, f"{with_config}-s{seed}", corpus, train, [*with_extra, *ctx.args])
        ensure_run(without_config, seed, without_name or name, f"{without_config}-s{seed}", corpus, train, ctx.args)
    rows, gains, withs, withouts = [], [], [], []
    for seed in seeds:
        scores = [
            score(name, f"{with_config}-s{seed}", metric),
            score(without_name or name, f"{without_config}-s{seed}", metric),
        ]
        withs.append(scores[0])
        withouts.append(scores[1])
        gains.append(scores[0] - scores[1])
        rows.append(f"| {seed} | {scores[0]:.2f} | {scores[1]:.2f} | {gains[-1]:+.2f} |")
    write_table(
        [f"| seed | {with_config} {metric} | {without_config} {metric} | difference |", "|---|---|---|---|", *rows,
         f"| mean ± sd | {summary(withs)} | {summary(withouts)} | {summary(gains)} |"],
        output,
    )


def source_set(names: str, pkuseg_model: Optional[str]) -> Dict[str, dict]:
    """The [components.mwa_enricher.sources] section for NAMES ("jieba+thulac+pkuseg").
    RAISES typer.BadParameter for an unknown name, or pkuseg without a model folder."""
    known = {
        "characters": {"@cws_sources": "spacy-cws.characters.v1"},
        "jieba": {"@cws_sources": "spacy-cws.jieba.v1", "hmm": True, "dictionary": None},
        "thulac": {"@cws_sources": "spacy-cws.thulac.v1", "model_path": None},
        "pkuseg": {"@cws_sources": "spacy-cws.pkuseg.v1", "model": pkuseg_model, "user_dict": None},
    }
    chosen = names.split("+")
    for source in chosen:
        if source not in known:
            raise typer.BadParameter(f"unknown source {source!r}: choose from {', '.join(known)}")
    if "pkuseg" in chosen and not pkuseg_model:
        raise typer.BadParameter("the pkuseg source needs --pkuseg-model (e.g. assets/pkuseg_mixed)")
    # A name given again is another source of its own (own attention and projection):
    # "characters+characters+characters" has the parameters of three segmenters.
    section: Dict[str, dict] = {}
    for source in chosen:
        key, copy = source, 1
        while key in section:
            copy += 1
            key = f"{source}-{copy}"
        section[key] = known[source]
    return section


# Source sets of the ablation: each segmenter alone, then all fused.
ABLATION = ["jieba", "thulac", "pkuseg", "jieba+thulac+pkuseg"]


@app.command("sources", context_settings=EXTRA)
def sources(
    ctx: typer.Context,
    corpus: Path = typer.Argument(..., help="Folder with train.spacy, dev.spacy, test.spacy."),
    name: str = typer.Option(..., "--name", help="Run group: training/NAME and metrics/NAME."),
    pkuseg_model: str = typer.Option(
        ..., "--pkuseg-model", help="Local spacy-pkuseg model folder (e.g. assets/pkuseg_mixed)."
    ),
    config: str = typer.Option("mwa_ner", "--config"),
    seed: int = typer.Option(0, "--seed"),
    metric: str = typer.Option("ents_f", "--metric"),
    train: bool = typer.Option(False, "--train", help="Train and evaluate the runs whose metrics are missing."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the table here."),
    pair_name: Optional[str] = typer.Option(
        None,
        "--pair-name",
        help="Also show (and with --train make) the runs of this seed without words and with the config's own sources, "
        "in this run group (e.g. resume).",
    ),
    without: str = typer.Option("char_ner", "--without", help="With --pair-name: the config without word information."),
):
    """CONFIG with each segmentation source alone and with all fused (same seed):
    the shape of Table 4 in Li et al. 2020 ("Enhancing Pre-trained Chinese
    Character Representation with Word-aligned Attention"). The config's
    sources are replaced per run.
    With --pair-name, the config's own sources and the baseline without
    words (trained in the group PAIR_NAME with --train when missing) are shown too."""
    rows = []
    if pair_name:
        ensure_run(without, seed, pair_name, f"{without}-s{seed}", corpus, train, ctx.args)
        ensure_run(config, seed, pair_name, f"{config}-s{seed}", corpus, train, ctx.args)
        rows.append(f"| none ({without}) | {score(pair_name, f'{without}-s{seed}', metric):.2f} |")
        own = "+".join(load_config(Path("configs") / f"{config}.cfg")["components"]["mwa_enricher"]["sources"])
        rows.append(f"| {own} ({config}.cfg) | {score(pair_name, f'{config}-s{seed}', metric):.2f} |")
    for label in ABLATION:
        run = f"{config}-{label}-s{seed}"
        chosen = source_set(label, pkuseg_model)
        ensure_run(
            config, seed, name, run, corpus, train, ["--components.mwa_enricher.sources", json.dumps(chosen), *ctx.args]
        )
        rows.append(f"| {label} | {score(name, run, metric):.2f} |")
    write_table([f"| sources | {metric} |", "|---|---|", *rows], output)


def ensure_run(config: str, seed: int, name: str, run: str, corpus: Path, train: bool, extra: List[str]) -> None:
    """Train and evaluate the run unless its metrics exist. RAISES typer.BadParameter
    when they are missing and ``train`` is False."""
    if run_paths(name, run)[1].is_file():
        return
    if not train:
        raise typer.BadParameter(f"{run_paths(name, run)[1]} is missing: pass --train to make it")
    train_and_evaluate(config, seed, name, run, corpus, extra)


def write_table(lines: List[str], output: Optional[Path]) -> None:
    table = "\n".join(lines)
    print(table)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    app()
