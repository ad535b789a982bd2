"""``python -m spacy_cws prepare CORPUS ASSETS OUTPUT_DIR``: a catalogued corpus -> DocBins."""
import shutil
from pathlib import Path

import typer
from wasabi import msg

from ..corpora.catalog import CORPORA, get_corpus
from ..corpora.convert import convert_corpus
from ..corpora.dev_overlap import LONG_PIECE, write_found
from ..corpora.evaluation_files import write_evaluation_files
from ..corpora.training_text import TrainingText
from ..lexicon.sources import tagged_corpus_lexicon, write_user_dictionary
from . import app
from .errors import fail
from .convert import print_report


@app.command("prepare")
def prepare_cli(
    corpus: str = typer.Argument(..., help=f"Corpus name: {', '.join(CORPORA)}."),
    assets: Path = typer.Argument(..., help="Folder holding the corpus files in the catalog layout (see fetch)."),
    output_dir: Path = typer.Argument(
        ...,
        help="Folder for train.spacy, dev.spacy, test.spacy, train_words.txt "
        "(and train_words_pos.txt for a word_POS corpus), test_input.utf8, test_gold.utf8.",
    ),
    dev_fraction: float = typer.Option(
        0.1, "--dev-fraction", help="Share of training sentences held out as dev when the corpus has no dev file."
    ),
):
    """Convert a catalogued corpus to DocBins, test input and gold files.

    Convert a corpus's train, dev and test files to DocBins (criterion: the
    corpus's, e.g. pku for pku_pfr; else its name), and write the training word
    list used for OOV measures, the test input and the test gold in the SIGHAN
    format. Where the catalog says so, the training lines are first cut into
    sentences, the words the official word list lacks split, and the dev
    sentences taken out of the training text (pku_pfr); the dev sentences found
    there are then written as dev_found_gold.utf8 and, as the training text
    segments them, dev_found_train.utf8."""
    try:
        files = get_corpus(corpus)
    except KeyError as err:
        fail(err.args[0])
    for field, relative in files.labelled_files():
        path = Path(assets) / relative
        if not path.is_file():
            fail(f"Missing {field} file of '{corpus}': {path} (run the fetch command first)")
    output_dir.mkdir(parents=True, exist_ok=True)
    words_path = output_dir / "train_words.txt"
    try:
        training_text = TrainingText.for_corpus(files, assets)
        reports = [
            convert_corpus(
                files.path(assets, "train"),
                output_dir / "train.spacy",
                fmt=files.format_of("train"),
                criterion=files.criterion,
                dev_output=None if files.dev else output_dir / "dev.spacy",
                dev_fraction=dev_fraction,
                words_output=None if files.train_words else words_path,
                transform=training_text,
            )
        ]
        for field, output in (("dev", "dev.spacy"), ("test_gold", "test.spacy")):
            if getattr(files, field):
                path, fmt = files.path(assets, field), files.format_of(field)
                reports.append(convert_corpus(path, output_dir / output, fmt=fmt, criterion=files.criterion))
    except ValueError as err:  # CorpusFormatError names the file and line
        fail(str(err))
    if training_text is not None:
        print_training_text(training_text, output_dir)
    for report in reports:
        print_report(report)
    if files.train_words:
        shutil.copyfile(files.path(assets, "train_words"), words_path)
        msg.good(f"Copied the official training word list to {words_path}")
    if files.format == "wordpos":
        tagged_path = output_dir / "train_words_pos.txt"
        write_user_dictionary(tagged_corpus_lexicon(files.path(assets, "train")), tagged_path)
        msg.good(f"Wrote the training words with their most frequent POS to {tagged_path} (word count POS)")
    input_path, gold_path = write_evaluation_files(files, assets, output_dir)
    msg.good(f"Wrote the test input {input_path} and the SIGHAN-format gold {gold_path}")


def print_training_text(text: TrainingText, output_dir: Path) -> None:
    """Report what was done to the training sentences; write the dev sentences found in them."""
    if text.files.held_out_days:
        msg.info(f"Held out {text.held_out:,} training line(s) dated {', '.join(text.files.held_out_days)}")
    if text.files.more_train:
        msg.info(
            f"Added {text.more:,} paragraph(s) of {', '.join(text.files.more_train)} whose text the training file lacks"
        )
    if text.files.sentences:
        msg.info(
            f"Cut {text.lines - text.held_out + text.more:,} training line(s) into {text.sentences:,} sentence(s) "
            "at the full stops"
        )
    if text.split_words is not None:
        msg.info(f"Split {text.split_words:,} training word(s) that {text.files.train_words} lacks")
    overlap = text.overlap
    if overlap is not None:
        share = overlap.found_chars / overlap.dev_chars if overlap.dev_chars else 0.0
        msg.info(
            f"Found {overlap.found:,} of the {overlap.dev_sentences:,} dev sentence(s) ({share:.2%} of their "
            f"{overlap.dev_chars:,} characters) in the training text; removed the {overlap.removed:,} training "
            f"sentence(s) equal to a dev sentence (or piece) and {overlap.holding:,} holding a dev piece of "
            f"{LONG_PIECE}+ characters"
        )
        gold, train = write_found(overlap, output_dir)
        msg.good(f"Wrote the dev sentences found, as the dev file and the training text segment them: {gold}, {train}")
