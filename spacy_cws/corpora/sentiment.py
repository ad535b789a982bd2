"""Read ChnSentiCorp-style sentiment files (``label<TAB>text`` with a header
row, label 1 positive / 0 negative) into Docs with ``doc.cats``.

The text is kept exactly (spaces and full-width punctuation included); the
Docs are made by the pipeline's tokenizer, so training sees the tokens the
pipeline will see.
"""
from pathlib import Path
from typing import Callable, Iterator, Tuple, Union

from spacy.tokens import Doc

from .formats import CorpusFormatError

# spaCy's textcat (mutually exclusive classes) needs one score per class.
LABELS = {"1": "POSITIVE", "0": "NEGATIVE"}


def read_sentiment(path: Union[str, Path]) -> Iterator[Tuple[int, str, str]]:
    """(line number, text, label) per row after the header.

    RAISES FileNotFoundError for a missing file and CorpusFormatError (naming
    file and line) for a row without a tab, a label other than 0/1, an empty
    text or bytes that are not UTF-8.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"sentiment file not found: {path}")
    with path.open("rb") as stream:
        for line_no, raw in enumerate(stream, start=1):
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as err:
                raise CorpusFormatError(path, line_no, f"not UTF-8 ({err.reason})") from None
            if line_no == 1:
                continue  # the header: label<TAB>text_a
            label, tab, text = line.partition("\t")
            if not tab or label not in LABELS:
                raise CorpusFormatError(path, line_no, f"expected '0|1<TAB>text', got {line[:40]!r}")
            if not text.strip():
                raise CorpusFormatError(path, line_no, "empty text")
            yield line_no, text, LABELS[label]


def sentiment_doc(make_doc: Callable[[str], Doc], text: str, label: str) -> Doc:
    """``make_doc(text)`` with ``doc.cats`` 1.0 for ``label`` and 0.0 for the other class."""
    doc = make_doc(text)
    doc.cats = {name: float(name == label) for name in LABELS.values()}
    return doc
