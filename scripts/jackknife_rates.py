"""Choosing ``jackknife_folds``: the training-words lexicon's miss rate per fold count, against the OOV rates of dev and test.

For a corpus folder written by ``python -m spacy_cws prepare`` (train.spacy,
dev.spacy, test.spacy): per fold count, the share of training tokens whose
word the jackknifed lexicon misses (spacy_cws/lexicon/jackknife.py), then the
share of dev and test tokens outside the training words. A model trained with
a miss rate near dev's OOV rate has learned to expect the lexicon coverage it
will meet.

python scripts/jackknife_rates.py corpus/ctb6 --folds 2 --folds 3 --folds 5 --folds 10 --output metrics/jackknife_rates.md
"""
from pathlib import Path
from typing import List, Optional

import spacy
import typer
from spacy.tokens import DocBin

from spacy_cws.lexicon.jackknife import jackknife_miss_rate, oov_rate


def main(
    corpus: Path = typer.Argument(..., help="A prepared corpus folder (train.spacy, dev.spacy, test.spacy)."),
    folds: List[int] = typer.Option([2, 3, 5, 10], "--folds", help="Fold counts to measure (each ≥ 1)."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the table here (Markdown)."),
) -> None:
    vocab = spacy.blank("zh").vocab
    splits = {}
    for split in ("train", "dev", "test"):
        path = corpus / f"{split}.spacy"
        if not path.exists():
            raise typer.BadParameter(f"{path} is missing: run `python -m spacy_cws prepare` for this corpus first")
        splits[split] = list(DocBin().from_disk(path).get_docs(vocab))
    if any(n < 1 for n in folds):
        raise typer.BadParameter(f"--folds must be 1 or more, got {folds}")
    train_words = {token.text for doc in splits["train"] for token in doc if not token.is_space}
    rows = [f"| jackknife_folds = {n} (training tokens missed) | {100 * jackknife_miss_rate(splits['train'], n):.2f} |" for n in folds]
    rows += [f"| {split} OOV rate (against the training words) | {100 * oov_rate(splits[split], train_words):.2f} |" for split in ("dev", "test")]
    table = "\n".join([f"| {corpus.name} | % of tokens |", "|---|---:|", *rows]) + "\n"
    print(table)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    typer.run(main)
