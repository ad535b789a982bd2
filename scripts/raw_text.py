"""Write the texts of DocBin corpora as raw text, one a line: the input of ``python -m spacy_cws adapt``.

    python scripts/raw_text.py OUTPUT.txt CORPUS.spacy [CORPUS.spacy ...]

The gold segmentation is dropped (doc.text holds no spaces between the words
of a prepared Chinese corpus), so a training split becomes the raw text of
its domain (docs/guides/domain-adaptation.md). Pass only training splits.
"""
from pathlib import Path
from typing import List

import typer
from wasabi import msg

from pretraining_text import corpus_texts


def main(output: Path, corpora: List[Path]):
    try:
        texts = [" ".join(text.splitlines()) for text in corpus_texts(corpora)]
    except ValueError as err:
        msg.fail(str(err), exits=1)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("".join(text + "\n" for text in texts), encoding="utf-8")
    msg.good(f"{len(texts):,} texts, {sum(map(len, texts)):,} characters -> {output}")


if __name__ == "__main__":
    typer.run(main)
