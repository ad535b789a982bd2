"""The accuracy table of issue 17: CTB6 dev, CTB6 test and ZX test, official SIGHAN F1 / OOV recall.

Each row is a pipeline; each column the official measures of its output
(``spacy_cws.scoring.evaluate.evaluate_corpus``, the same as ``python -m
spacy_cws evaluate``). CTB6 dev is scored like a test set: its gold lines
come from corpus/ctb6/dev.spacy, its OOV words are the CTB6 training words.
Each ``--zx-lexicon`` adds a column: ZX test with the file's words (and
POS, where the file has them) added to the pipeline's lexicon at inference
(``--user-dict-mode prefer``; pipelines without a lexicon show "--").

python scripts/accuracy_table.py "0.1.0=zh_cws_gd" "closed=training/ctb6-lexicon-closed/model-best" \\
    --ctb6 corpus/ctb6 --zx corpus/zx --zx-lexicon corpus/zx/train_words.txt --output docs/experiments/accuracy_table.md
"""
import shutil
import tempfile
from pathlib import Path
from typing import List, Optional

import spacy
import typer
from spacy.tokens import DocBin

from spacy_cws.scoring.evaluate import evaluate_corpus, system_line
from spacy_cws.segmenter.user_dictionary_setup import add_user_dictionary


def dev_as_test(corpus: Path, folder: Path) -> Path:
    """A corpus folder whose "test" files are ``corpus``'s dev set."""
    docs = list(DocBin().from_disk(corpus / "dev.spacy").get_docs(spacy.blank("zh").vocab))
    (folder / "test_gold.utf8").write_text("".join(system_line(doc) + "\n" for doc in docs), encoding="utf-8")
    (folder / "test_input.utf8").write_text("".join(doc.text + "\n" for doc in docs), encoding="utf-8")
    shutil.copy(corpus / "dev.spacy", folder / "test.spacy")
    shutil.copy(corpus / "train_words.txt", folder / "train_words.txt")
    return folder


def cell(nlp, corpus: Path, scratch: Path) -> str:
    official = evaluate_corpus(nlp, corpus, scratch / "system.seg")["official"]
    return f"{100 * official['f1']:.2f} / {100 * official['oov_recall']:.2f}"


def main(
    rows: List[str] = typer.Argument(..., help="NAME=PIPELINE, one per row."),
    ctb6: Path = typer.Option(..., help="The prepared CTB6 folder (train/dev/test)."),
    zx: Path = typer.Option(..., help="The prepared ZX folder."),
    zx_lexicon: List[Path] = typer.Option([], help="ZX training words, added as a lexicon (prefer): one column per file."),
    output: Optional[Path] = typer.Option(None, help="Markdown file to write the table to."),
):
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        dev = dev_as_test(ctb6, Path(tempfile.mkdtemp(dir=scratch)))
        header = ["row", "pipeline", "CTB6 dev", "CTB6 test", "ZX test"] + [f"ZX test + {path.name} (prefer)" for path in zx_lexicon]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for row in rows:
            name, _, path = row.partition("=")
            nlp = spacy.load(path)
            cells = [name, f"`{path}`", cell(nlp, dev, scratch), cell(nlp, ctb6, scratch), cell(nlp, zx, scratch)]
            for lexicon in zx_lexicon:
                with_lexicon = spacy.load(path)
                try:
                    add_user_dictionary(with_lexicon, lexicon, "prefer")
                    cells.append(cell(with_lexicon, zx, scratch))
                except ValueError:  # no lexicon features to prefer words in
                    cells.append("--")
            lines.append("| " + " | ".join(cells) + " |")
            typer.echo(lines[-1])
    table = "\n".join(lines) + "\n\nCells: official SIGHAN F1 / OOV recall, in %.\n"
    if output:
        output.write_text(table, encoding="utf-8")
    typer.echo(table)


if __name__ == "__main__":
    typer.run(main)
