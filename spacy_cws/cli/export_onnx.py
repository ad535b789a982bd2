"""``python -m spacy_cws export-onnx PIPELINE OUTPUT``: save a pipeline with its network as an ONNX graph."""
from pathlib import Path
from typing import List

import spacy
import typer
from wasabi import msg

from . import app
from ..adaptation.raw_text import read_raw_texts
from ..backends.export_options import DEFAULT_MATMULS, DEFAULT_TABLES, ONNX_MATMULS, ONNX_TABLES
from ..segmenter.moved_settings import upgrade_config
from ..segmenter.pipeline_segmenters import segmenter_component
from .derived_meta import derived_meta
from .errors import fail
from .half_precision import halve_torch_weights
from .pipeline_output import check_pipeline_output, replacing_folder, source_folder


@app.command("export-onnx")
def export_onnx_cli(
    pipeline: str = typer.Argument(..., help="A trained pipeline (name or path) with a gd_segmenter."),
    output: Path = typer.Argument(..., help="Folder for the copy that holds the graph."),
    tables: str = typer.Option(
        DEFAULT_TABLES, "--tables", help=f"How the graph stores the n-gram tables: {' or '.join(ONNX_TABLES)}."
    ),
    matmuls: str = typer.Option(
        DEFAULT_MATMULS,
        "--matmuls",
        help=f"How the graph computes its products by weights: {' or '.join(ONNX_MATMULS)}.",
    ),
    calibration: Path = typer.Option(
        None,
        "--calibration",
        help="Text whose activations set the ranges of --matmuls int8-static: UTF-8, a sentence a line, "
        "or a DocBin (.spacy, e.g. corpus/ctb6/dev.spacy); a few hundred sentences of your text.",
    ),
    bigram_rows: int = typer.Option(
        0,
        "--bigram-rows",
        help="Keep only this many of the most frequent bigrams and their rows of the bigram table "
        "(the others read the unknown bigram's row; 0: all of them).",
    ),
    component: str = typer.Option("gd_segmenter", "--component", help="The segmenter to export."),
    force: bool = typer.Option(
        False, "--force", help="Replace an existing output pipeline folder whole (never the source pipeline)."
    ),
):
    """Save a copy of a pipeline that runs on ONNX Runtime, without torch.

    Save a copy of PIPELINE whose segmenter holds its network as an ONNX
    graph (gd_segmenter/graph.onnx), so that loading it and segmenting need
    neither torch nor its weights file; the torch weights are kept, in
    float16, for training. With --tables int8 (the default) or int4 the
    n-gram tables are int8 rows or 4-bit blocks with their scales, stored
    in the graph only, and torch reads the same rows: both backends give
    the same words. With --matmuls float32 (the default) the graph gives
    the torch backend's words; with --matmuls int8 the products by weights run in
    ONNX Runtime's dynamic int8 (faster; the words then differ slightly
    from torch's and with the batch); with --matmuls int8-static and
    --calibration FILE the activations' ranges are measured once on FILE,
    so the words do not depend on the batch. OUTPUT is a new folder, or with
    --force an earlier output pipeline, replaced whole; never the source.
    Its meta.json names it NAME_onnx, records the source, and carries none
    of the source's scores. With --bigram-rows N only the N most frequent
    bigrams keep rows of the bigram table, most of the package's bytes: the
    others read the unknown bigram's row, as the bigrams under
    bigram_min_count did in training (a smaller package; what it does to
    the words: docs/experiments/inference.md, "Fewer bigram rows"). This is
    what `ship` packages. Needs the train extra (torch, onnx)."""
    if tables not in ONNX_TABLES:
        fail(f"--tables must be one of {', '.join(ONNX_TABLES)}, got '{tables}'")
    if matmuls not in ONNX_MATMULS:
        fail(f"--matmuls must be one of {', '.join(ONNX_MATMULS)}, got '{matmuls}'")
    if bigram_rows < 0:
        fail(f"--bigram-rows must be 0 (all the bigrams) or more, got {bigram_rows}")
    try:
        nlp = spacy.load(pipeline)
        _, segmenter = segmenter_component(nlp, component)
    except (OSError, KeyError, ValueError) as err:
        fail(str(err))
    check_pipeline_output(output, force, source_folder(nlp))
    try:
        texts = calibration_texts(calibration, nlp) if calibration is not None else None
        dropped = segmenter.keep_frequent_bigrams(bigram_rows) if bigram_rows else 0
        segmenter.export_onnx(texts, tables=tables, matmuls=matmuls)
        halve_torch_weights(nlp)
    except (OSError, KeyError, ValueError, ImportError) as err:
        fail(str(err))
    upgrade_config(nlp.get_pipe_config(component), segmenter.cfg["unbroken_patterns"])
    nlp.meta = derived_meta(
        nlp.meta, "export-onnx", "onnx",
        f"its network as an ONNX graph ({tables} n-gram tables, {matmuls} products by weights), "
        "its torch weights in float16"
        + (f", its {bigram_rows:,} most frequent bigrams only ({dropped:,} dropped)" if dropped else ""),
    )
    with replacing_folder(output):
        nlp.to_disk(output)
    sizes = {path.name: path.stat().st_size for path in (output / component).iterdir()}
    msg.good(
        f"Saved {output}: graph {sizes.get('graph.onnx', 0) / 1e6:.1f} MB ({tables} tables, {matmuls} products), "
        f"torch weights {sizes.get('model', 0) / 1e6:.1f} MB, featurizer {sizes.get('featurizer', 0) / 1e6:.1f} MB"
    )


def calibration_texts(path: Path, nlp) -> List[str]:
    """The texts of a DocBin's Docs (``.spacy``) or of a UTF-8 file's non-blank lines.
    RAISES FileNotFoundError naming a missing file; ValueError for a file that is not UTF-8 or not a DocBin."""
    if path.suffix != ".spacy":
        return read_raw_texts([path], min_characters=0)
    from spacy.tokens import DocBin

    if not path.is_file():
        raise FileNotFoundError(f"Calibration file not found: {path}")
    try:
        return [doc.text for doc in DocBin().from_disk(path).get_docs(nlp.vocab)]
    except Exception as err:  # srsly's and zlib's own errors for a file that is not a DocBin
        raise ValueError(f"{path} is not a DocBin (.spacy) file: {type(err).__name__}") from err
