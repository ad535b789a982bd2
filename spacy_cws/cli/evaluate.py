"""``python -m spacy_cws evaluate MODEL CORPUS ASSETS CORPUS_DIR``: official + spaCy scores."""
from pathlib import Path
from typing import Optional

import srsly
import typer
from wasabi import msg

from ..scoring.evaluate import evaluate_corpus
from ..scoring.evaluation_checks import check_evaluation_files
from .segment import CRITERION_OPTION, USER_DICT_MODE_OPTION, USER_DICT_OPTION, UserDictionaryMode, prepare_pipeline
from . import app
from .errors import fail


@app.command("evaluate")
def evaluate_cli(
    model: str = typer.Argument(..., help="Pipeline name or path, e.g. training/ctb6/model-best."),
    corpus_dir: Path = typer.Argument(
        ...,
        help="The prepared corpus folder (from prepare: test_input.utf8, test_gold.utf8, train_words.txt, test.spacy).",
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Metrics JSON to write."),
    system_output: Path = typer.Option(..., "--system-output", help="Segmented test output (SIGHAN format)."),
    batch_size: int = typer.Option(256, "--batch-size", help="nlp.pipe batch size."),
    criterion: Optional[str] = CRITERION_OPTION,
    user_dict: Optional[Path] = USER_DICT_OPTION,
    user_dict_mode: UserDictionaryMode = USER_DICT_MODE_OPTION,
):
    """Segment a prepared test set; write its SIGHAN and spaCy scores.

    Segment a prepared corpus's test set, score it with the official SIGHAN
    measures and spaCy's token P/R/F, and write both to a metrics JSON."""
    try:
        check_evaluation_files(corpus_dir)  # before the pipeline loads: a bad corpus fails at once
        nlp = prepare_pipeline(model, criterion, user_dict, user_dict_mode)
        results = evaluate_corpus(nlp, corpus_dir, system_output, batch_size)
    except (FileNotFoundError, ValueError) as err:  # ValueError: e.g. LineMismatchError, CorpusFormatError
        fail(str(err))
    metrics = {
        "model": str(model),
        "corpus_dir": str(corpus_dir),
        "criterion": criterion,
        "user_dict": None if user_dict is None else {"path": str(user_dict), "mode": user_dict_mode.value},
        **results,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, metrics)
    official, speed = metrics["official"], metrics["speed"]
    rows = [
        ("precision", f"{official['precision']:.4f}"),
        ("recall", f"{official['recall']:.4f}"),
        ("F1", f"{official['f1']:.4f}"),
        ("OOV rate", f"{official['oov_rate']:.4f}"),
        ("OOV recall", "--" if official["oov_recall"] is None else f"{official['oov_recall']:.4f}"),
        ("IV recall", "--" if official["iv_recall"] is None else f"{official['iv_recall']:.4f}"),
        ("spaCy token_f", f"{metrics['spacy']['token_f']:.4f}"),
        ("chars/s (nlp.pipe)", f"{speed['chars_per_second']:,.0f}"),
    ]
    msg.table(rows, header=(f"{corpus_dir} test", "official SIGHAN"), aligns=("l", "r"))
    msg.good(f"Wrote {output} and {system_output}")
