"""The raw texts of training splits, from the files this project has: DocBins
(any prepared corpus: segmented, NER or sentiment; the annotations are not
used) and review CSVs (waimai_10k, ChnSentiCorp_htl_all: a header row with a
``review`` column)."""
import csv
from pathlib import Path
from typing import Iterable, Iterator, Union

from spacy.tokens import DocBin
from spacy.vocab import Vocab

TEXT_COLUMN = "review"


def training_texts(paths: Iterable[Union[str, Path]]) -> Iterator[str]:
    """The non-empty texts of each file, in order.

    RAISES FileNotFoundError: for a missing file; ValueError: for a file that
        is neither .spacy nor .csv, or a CSV without a ``review`` column.
    """
    vocab = Vocab()
    for path in map(Path, paths):
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found: prepare or convert the corpus first")
        if path.suffix == ".spacy":
            texts = (doc.text for doc in DocBin().from_disk(path).get_docs(vocab))
        elif path.suffix == ".csv":
            texts = _csv_texts(path)
        else:
            raise ValueError(f"{path}: expected a DocBin (.spacy) or a review CSV (.csv)")
        yield from (text for text in texts if text.strip())


def _csv_texts(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8", newline="") as stream:
        reader = csv.DictReader(stream)
        if TEXT_COLUMN not in (reader.fieldnames or []):
            raise ValueError(f"{path}: no '{TEXT_COLUMN}' column in its header {reader.fieldnames}")
        for row in reader:
            yield row[TEXT_COLUMN] or ""
