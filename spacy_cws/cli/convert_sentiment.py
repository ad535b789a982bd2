"""``python -m spacy_cws convert-sentiment``: ChnSentiCorp TSV -> DocBin."""
from pathlib import Path

import spacy
import typer
from spacy.tokens import DocBin
from wasabi import msg

from ..corpora.sentiment import LABELS, read_sentiment, sentiment_doc
from . import app
from .errors import fail


@app.command("convert-sentiment")
def convert_sentiment_cli(
    input_path: Path = typer.Argument(
        ..., help="label<TAB>text per row after a header row; label 1 positive, 0 negative."
    ),
    output_path: Path = typer.Argument(..., help="DocBin (.spacy) to write."),
):
    """Convert ChnSentiCorp to a DocBin for spaCy's textcat.

    Convert ChnSentiCorp to a DocBin for spaCy's textcat: one Doc per row,
    its text exactly the row's text (character tokens), doc.cats POSITIVE /
    NEGATIVE."""
    make_doc = spacy.blank(
        "zh", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.CharPretokenizer.v1"}}}
    ).make_doc
    doc_bin = DocBin()
    counts = dict.fromkeys(LABELS.values(), 0)
    try:
        for _, text, label in read_sentiment(input_path):
            doc_bin.add(sentiment_doc(make_doc, text, label))
            counts[label] += 1
    except (FileNotFoundError, ValueError) as err:  # CorpusFormatError names file and line
        fail(str(err))
    output_path.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output_path)
    msg.good(
        f"Wrote {sum(counts.values()):,} texts to {output_path}: " + ", ".join(f"{n:,} {k}" for k, n in counts.items())
    )
