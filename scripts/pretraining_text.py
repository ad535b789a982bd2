"""Write the texts of DocBin corpora as the JSONL raw text of ``spacy pretrain``.

    python scripts/pretraining_text.py OUTPUT.jsonl CORPUS.spacy [CORPUS.spacy ...]

One line {"text": doc.text} per Doc, in the order given, empty texts left out;
prints the number of texts and characters. The annotations are not used, so
any corpus of this project will do (segmented, NER or sentiment). Pass only
training splits: a test set's text in the pretraining data would leak it.
"""
from pathlib import Path
from typing import List

import srsly
import typer
from wasabi import msg

from spacy_cws.ngram_vectors.training_texts import training_texts


def main(output: Path, corpora: List[Path]):
    try:
        texts = list(training_texts(corpora))
    except (OSError, ValueError) as err:
        msg.fail(str(err), exits=1)
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_jsonl(output, ({"text": text} for text in texts))
    msg.good(f"{len(texts):,} texts, {sum(map(len, texts)):,} characters -> {output}")


if __name__ == "__main__":
    typer.run(main)
