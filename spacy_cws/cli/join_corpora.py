"""``python -m spacy_cws join-corpora OUTPUT CORPUS_DIR...``: several prepared corpora as one training set."""
import shutil
from pathlib import Path
from typing import List

import typer
from wasabi import msg

from . import app
from .errors import fail


@app.command("join-corpora")
def join_corpora_cli(
    output: Path = typer.Argument(..., help="Folder to write OUTPUT/train/NAME.spacy and OUTPUT/dev/NAME.spacy into."),
    corpus_dirs: List[Path] = typer.Argument(
        ..., help="Prepared corpus folders (from prepare), e.g. corpus/ctb6 corpus/sxu."
    ),
):
    """Join prepared corpora's DocBins for multi-criteria training.

    Collect the train and dev DocBins of prepared corpora into one folder
    per split: spaCy's Corpus reader reads every .spacy file under a folder,
    and each Doc keeps its corpus as doc._.cws_criterion, so a multi-criteria
    segmenter trains on all of them (--paths.train OUTPUT/train)."""
    for corpus_dir in corpus_dirs:
        for split in ("train", "dev"):
            if not (corpus_dir / f"{split}.spacy").is_file():
                fail(f"{corpus_dir / f'{split}.spacy'} is missing: run the prepare command for it first")
    for split in ("train", "dev"):
        folder = output / split
        if folder.exists():
            shutil.rmtree(folder)  # a corpus dropped from the list must not linger
        folder.mkdir(parents=True)
        for corpus_dir in corpus_dirs:
            shutil.copyfile(corpus_dir / f"{split}.spacy", folder / f"{corpus_dir.name}.spacy")
    msg.good(f"Joined {', '.join(d.name for d in corpus_dirs)} into {output}/train and {output}/dev")
