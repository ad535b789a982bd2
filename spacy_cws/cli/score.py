"""``python -m spacy_cws score``: the SIGHAN Bakeoff scorer, ported to Python."""
from pathlib import Path

import srsly
import typer

from ..scoring.sighan import score_files
from . import app
from .errors import fail

OUTPUT_KEYS = (
    "precision", "recall", "f1", "oov_rate", "oov_recall", "iv_recall", "true_words", "test_words"
)


@app.command("score")
def score_cli(
    gold_file: Path = typer.Argument(
        ..., help="Gold segmentation: one sentence per line, words separated by spaces."
    ),
    system_file: Path = typer.Argument(..., help="System segmentation, line-aligned with GOLD_FILE."),
    train_words: Path = typer.Option(
        ...,
        "--train-words",
        help="Training word list, one word per line (decides which gold words are OOV).",
    ),
    perl_compat: bool = typer.Option(
        False,
        "--perl-compat",
        help="Pair lines blindly as the Perl script does: stop at the shorter file, "
        "score lines whatever their characters or encoding.",
    ),
):
    """Score a segmentation against gold with the official SIGHAN measures.

    Score SYSTEM_FILE against GOLD_FILE exactly as the official SIGHAN
    icwb2 Perl script does, and print one JSON object: precision, recall, f1,
    oov_rate, oov_recall, iv_recall as fractions in [0, 1] (null where Perl
    prints "--") and true_words, test_words as word counts. Both files must
    be UTF-8 and line-aligned (the same characters on each line), else the
    first differing line is named on stderr and the exit code is 1, unless
    --perl-compat is given."""
    try:
        result = score_files(gold_file, system_file, train_words, perl_compat).to_dict()
    except (FileNotFoundError, ValueError) as err:
        fail(str(err))
    typer.echo(srsly.json_dumps({key: result[key] for key in OUTPUT_KEYS}))
