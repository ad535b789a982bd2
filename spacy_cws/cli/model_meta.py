"""``python -m spacy_cws model-meta CORPUS METRICS OUTPUT``: model card fields for ``spacy package``."""
import json
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence

import srsly
import typer
from spacy.util import get_minor_version_range, get_package_version
from wasabi import msg

from .. import __version__
from ..corpora.catalog import CORPORA, get_corpus
from ..tagging import TAGGING_COMPONENTS
from . import app
from .errors import fail, require_file


# What of a corpus holds gold part-of-speech tags, where that is not what its
# segmentation criterion trains on (pku_pfr: January and February; tags in January only).
TAGGED_PARTS = {
    "pku_pfr": (
        "the gold PKU tags of People's Daily January 1998 (PFR 1.0), 1-25 January (26-28 dev, 29-31 held out),"
        " half of its paragraphs, each pass, with their full-width Latin letters and digits in ASCII"
    ),
}
# Lexicons a pipeline may carry besides its training words, and their terms.
LEXICON_SOURCES = {
    "jieba": ("jieba's bundled dict.txt (jieba 0.42.1: about 349,000 words with frequency and POS)", "MIT"),
}


def build_meta(
    corpus: str,
    metrics: dict,
    speed_records: Optional[List[dict]] = None,
    lexicons: Sequence[str] = (),
    ngram_vectors: Optional[dict] = None,
    teacher: Optional[str] = None,
    joint_corpora: Sequence[str] = (),
    onnx_graph: Optional[dict] = None,
    teacher_corpora: Sequence[str] = (),
    tagger_corpus: Optional[str] = None,
) -> dict:
    """meta.json fields naming the training data, the lexicons, their terms, the measured scores
    and the spacy-cws versions that load the pipeline.

    metrics: the JSON written by ``evaluate`` (official SIGHAN measures and speed).
    speed_records: the JSON lines of benchmarks/benchmark_speed.py, if measured.
    lexicons: the segmenter's lexicon channels ("training" = the training
        corpus's own words; "jieba"; or a user dictionary's path).
    ngram_vectors: the provenance of the pretrained n-gram vectors the model
        started from (the segmenter's cfg["ngram_vectors"]: their source
        files), or None.
    teacher: the pipeline (name and version) whose words on raw training-split
        text the model was also trained on (teacher-corpus), or None.
    joint_corpora: the other corpora the model was trained on jointly
        (multi-criteria; each with its own criterion), e.g. ["sxu"].
    onnx_graph: where the pipeline holds an ONNX graph of its network, how
        it was exported (the segmenter's cfg records ``onnx_tables`` and
        ``onnx_matmuls``); None without a graph.
    teacher_corpora: the corpora the teacher was trained on, whose terms the
        student inherits, e.g. ["ctb6", "sxu", "pku_pfr"]; only with teacher.
    tagger_corpus: the corpus whose gold part-of-speech tags trained the
        pipeline's tagger (configs/tagged_pipeline.cfg), e.g. "pku_pfr"; None
        for a pipeline that gives words only.
    RAISES KeyError: for an unknown corpus.
    """
    files = get_corpus(corpus)
    joint = [get_corpus(name) for name in joint_corpora]
    taught_by = [get_corpus(name) for name in teacher_corpora]
    tags = get_corpus(tagger_corpus) if tagger_corpus else None
    official, speed = metrics["official"], metrics["speed"]
    meta = {
        "description": (
            f"Chinese word segmentation with the Gaussian-masked Directional Transformer "
            f"(Duan & Zhao, EMNLP 2020), trained on {files.source}. Test set, official SIGHAN "
            f"measures: P {official['precision']:.4f}, R {official['recall']:.4f}, F1 {official['f1']:.4f}, "
            f"OOV recall {_fraction(official['oov_recall'])}{_in_precision(speed)}; {speed['chars_per_second']:,.0f} "
            f"characters per second through nlp.pipe on CPU. Training data terms: {files.terms}."
        ),
        "license": f"Model code MIT; weights trained on {corpus} data: {files.terms}",
        "sources": [{"name": files.source, "license": files.terms}],
        # The spacy-cws that wrote the pipeline, up to its next minor version
        # (a pipeline's saved format may need the version that wrote it).
        "requirements": [f"spacy-cws{get_minor_version_range(__version__)}"],
        # spaCy's own scores on the test set (token_acc, token_p, token_r, token_f), where spaCy's
        # model cards keep them: an assembled pipeline's meta.json has none of its own.
        "performance": dict(metrics["spacy"]),
        "spacy_cws_test_scores": {
            "corpus": corpus,
            **official,
            "chars_per_second": speed["chars_per_second"],
            # What the scores were measured in ("precision" is the SIGHAN measure): "auto"
            # pipelines run bfloat16 on CPUs that have it.
            "inference_precision": speed.get("precision"),
        },
    }
    credited = {corpus, *joint_corpora}  # corpora whose terms the card already names
    for name, other in zip(joint_corpora, joint):
        meta["description"] += (
            f" Trained jointly on {other.source} (multi-criteria: a criterion embedding per corpus; it segments by"
            f" the {corpus} criterion unless a Doc names another). Its terms: {other.terms}."
        )
        meta["license"] += f"; also trained on {name} data: {other.terms}"
        meta["sources"].append({"name": other.source, "license": other.terms})
    for lexicon in lexicons:
        if lexicon == "training":
            taught = f" and the words {teacher} gave the raw text" if teacher else ""
            meta["description"] += f" Lexicon features: the {corpus} training words{taught}."
            continue
        name, terms = LEXICON_SOURCES.get(lexicon, (f"the user dictionary {lexicon}", "as its provider states"))
        meta["sources"].append({"name": name, "license": terms})
        meta["description"] += f" Lexicon features: {name}, {terms}."
        meta["license"] += f"; lexicon {name}: {terms}"
    if ngram_vectors:
        sources = ", ".join(ngram_vectors.get("sources", []))
        meta["description"] += (
            f" Character and bigram embeddings pretrained (word2vec) on the raw text of {sources}"
            f" ({ngram_vectors.get('characters', 0):,} characters; training splits only)."
        )
        meta["sources"].append({"name": f"raw text of {sources} (pretrained n-gram vectors)",
                                "license": "research use only, as each corpus's terms state"})
    if teacher:
        trained_on = f" (itself trained on {', '.join(other.source for other in taught_by)})" if taught_by else ""
        meta["description"] += (
            f" Distilled from {teacher}{trained_on}: also trained on the raw text of training splits (no dev or"
            f" test text) as {teacher} segments it (knowledge distillation)."
        )
        meta["sources"].append({"name": f"raw training-split text segmented by {teacher}",
                                "license": "research use only, as each corpus's terms state"})
        for name, other in zip(teacher_corpora, taught_by):
            if name not in credited:
                credited.add(name)
                meta["license"] += f"; its teacher trained on {name} data: {other.terms}"
                meta["sources"].append({"name": f"{other.source} (through the teacher)", "license": other.terms})
    if tags is not None:
        meta["description"] += (
            f" Part-of-speech tags behind the words: spaCy's tagger, PKU's tagset in token.tag_ and UPOS in"
            f" token.pos_, trained on {TAGGED_PARTS.get(tagger_corpus, f'the gold tags of {tags.source}')}."
            f" The tags are for words of that standard: segment by its criterion ({tags.criterion},"
            f" as doc._.cws_criterion or segment --criterion) for them; other standards' words get coarser tags"
            f" (docs/guides/part-of-speech.md). Words only (the speeds here are theirs):"
            f" spacy.load(name, exclude={json.dumps(list(TAGGING_COMPONENTS))})."
        )
        if tagger_corpus not in credited:
            meta["license"] += f"; tagger trained on {tagger_corpus} data: {tags.terms}"
            meta["sources"].append({"name": f"{tags.source} (part-of-speech tags)", "license": tags.terms})
    if onnx_graph:
        meta["description"] += (
            f" Runs on ONNX Runtime without torch: its network as an ONNX graph with"
            f" {onnx_graph.get('onnx_tables', 'int8')} n-gram tables"
            f" and {onnx_graph.get('onnx_matmuls', 'float32')} products by weights."
        )
    if speed_records:
        fields = ("call", "batch_size", "characters", "chars_per_second", "torch_threads", "peak_rss_mb_after_load")
        meta["spacy_cws_speed"] = [{key: record.get(key) for key in fields} for record in speed_records]
        meta["description"] += " Speed on CPU: " + "; ".join(_speed_phrase(record) for record in speed_records) + "."
    return meta


def _speed_phrase(record: dict) -> str:
    where = (
        f"one {record['characters']:,}-character document"
        if record["call"] == "one document"
        else f"{record['call']} batch size {record['batch_size']}"
    )
    return f"{record['chars_per_second']:,.0f} characters per second for {where} ({record['torch_threads']} threads)"


def _fraction(value) -> str:
    """A fraction to 4 decimals; "--" where the scorer had nothing to measure (no OOV words)."""
    return "--" if value is None else f"{value:.4f}"


def read_json_file(path: Path, reader: Callable[[Path], Any]) -> Any:
    """``reader(path)``, or fail naming the file if it is not valid JSON."""
    try:
        return reader(path)
    except ValueError as err:
        fail(f"{path} is not valid JSON: {err}")


@app.command("model-meta")
def model_meta_cli(
    corpus: str = typer.Argument(..., help=f"The training corpus: {', '.join(CORPORA)}."),
    metrics: Path = typer.Argument(..., help="Metrics JSON written by evaluate."),
    output: Path = typer.Argument(..., help="meta.json fields to pass to spacy package --meta-path."),
    speed: Optional[Path] = typer.Option(
        None, "--speed", help="JSON lines written by benchmarks/benchmark_speed.py --output."
    ),
    pipeline: Optional[Path] = typer.Option(
        None, "--pipeline", help="The pipeline folder, to name its lexicons and their terms."
    ),
    joint_corpus: List[str] = typer.Option(
        [], "--joint-corpus", help="Another corpus the model was trained on jointly (multi-criteria); repeatable."
    ),
    distilled_from: Optional[str] = typer.Option(
        None,
        "--distilled-from",
        help="The teacher pipeline (an installed package, or a folder) whose words on raw text the model also "
        "learned (teacher-corpus).",
    ),
    teacher_corpus: List[str] = typer.Option(
        [], "--teacher-corpus", help="A corpus the teacher was trained on (with --distilled-from); repeatable."
    ),
    tagger_corpus: Optional[str] = typer.Option(
        None, "--tagger-corpus", help="The corpus whose gold part-of-speech tags trained the pipeline's tagger."
    ),
):
    """Write model card fields (training data, its terms, test scores) for spacy package."""
    require_file(metrics, "Metrics file (run evaluate first)")
    if speed is not None:
        require_file(speed, "Speed file (run benchmarks/benchmark_speed.py --output first)")
    metrics_data = read_json_file(metrics, srsly.read_json)
    speed_records = read_json_file(speed, lambda path: list(srsly.read_jsonl(path))) if speed else None
    segmenter_cfg, onnx_graph = {}, None
    if pipeline is not None:
        cfg_path = pipeline / "gd_segmenter" / "cfg"
        require_file(cfg_path, "Segmenter cfg of the pipeline")
        segmenter_cfg = read_json_file(cfg_path, srsly.read_json)
        if (pipeline / "gd_segmenter" / "graph.onnx").is_file():
            onnx_graph = {
                key: segmenter_cfg.get(key) for key in ("onnx_tables", "onnx_matmuls") if key in segmenter_cfg
            }
    lexicons = [channel["name"] for channel in segmenter_cfg.get("lexicons", [])]
    if teacher_corpus and not distilled_from:
        fail("--teacher-corpus names the teacher's corpora: give the teacher with --distilled-from too")
    teacher = _teacher_name(distilled_from) if distilled_from else None
    try:
        meta = build_meta(
            corpus,
            metrics_data,
            speed_records,
            lexicons,
            segmenter_cfg.get("ngram_vectors"),
            teacher,
            joint_corpus,
            onnx_graph,
            teacher_corpus,
            tagger_corpus,
        )
    except KeyError as err:
        fail(f"Cannot build the model card: {err.args[0]}")
    srsly.write_json(output, meta)
    msg.good(f"Wrote {output}")


def _teacher_name(teacher: str) -> str:
    """An installed package's name and version, or a pipeline folder's path (its meta.json
    names only spacy train's placeholder); fails where TEACHER is neither."""
    if Path(teacher).is_dir():
        require_file(Path(teacher) / "meta.json", "meta.json of the --distilled-from pipeline")
        return f"the pipeline {teacher}"
    version = get_package_version(teacher)
    if version is None:
        fail(f"--distilled-from {teacher}: no such installed pipeline package or pipeline folder")
    return f"{teacher} {version}"


def _in_precision(speed: dict) -> str:
    """The card's note of the inference precision, e.g. ' (float32 inference)';
    '' where evaluate's speed record names none."""
    return f" ({speed['precision']} inference)" if speed.get("precision") else ""
