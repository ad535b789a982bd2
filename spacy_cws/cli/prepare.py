"""``python -m spacy_cws prepare CORPUS ASSETS OUTPUT_DIR``: a catalogued corpus -> DocBins."""
import shutil
from pathlib import Path

import typer
from wasabi import msg

from ..corpora.catalog import get_corpus
from ..corpora.convert import convert_corpus
from ..corpora.evaluation_files import write_evaluation_files
from ..lexicon.sources import tagged_corpus_lexicon, write_user_dictionary
from . import app
from .errors import fail
from .convert import print_report


@app.command("prepare")
def prepare_cli(
    corpus: str = typer.Argument(..., help="Corpus name: pku, msr, as, cityu, ctb6, sxu or zx."),
    assets: Path = typer.Argument(..., help="Folder holding the corpus files in the catalog layout (see fetch)."),
    output_dir: Path = typer.Argument(..., help="Folder for train.spacy, dev.spacy, test.spacy, train_words.txt (and train_words_pos.txt for a word_POS corpus), test_input.utf8, test_gold.utf8."),
    dev_fraction: float = typer.Option(
        0.1, "--dev-fraction", help="Share of training sentences held out as dev when the corpus has no dev file."
    ),
):
    """Convert a catalogued corpus to DocBins, test input and gold files.

    Convert a corpus's train, dev and test files to DocBins (criterion = corpus
    name), and write the training word list used for OOV measures, the test
    input and the test gold in the SIGHAN format."""
    try:
        files = get_corpus(corpus)
    except KeyError as err:
        fail(err.args[0])
    for field in ("train", "dev", "test_gold", "train_words"):
        path = files.path(assets, field)
        if path is not None and not path.is_file():
            fail(f"Missing {field} file of '{corpus}': {path} (run the fetch command first)")
    output_dir.mkdir(parents=True, exist_ok=True)
    words_path = output_dir / "train_words.txt"
    common = dict(fmt=files.format, criterion=corpus)
    try:
        reports = [
            convert_corpus(
                files.path(assets, "train"),
                output_dir / "train.spacy",
                dev_output=None if files.dev else output_dir / "dev.spacy",
                dev_fraction=dev_fraction,
                words_output=None if files.train_words else words_path,
                **common,
            )
        ]
        if files.dev:
            reports.append(convert_corpus(files.path(assets, "dev"), output_dir / "dev.spacy", **common))
        reports.append(convert_corpus(files.path(assets, "test_gold"), output_dir / "test.spacy", **common))
    except ValueError as err:  # CorpusFormatError names the file and line
        fail(str(err))
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
