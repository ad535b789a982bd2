"""``python -m spacy_cws teacher-corpus TEACHER OUTPUT SOURCES...``: raw text segmented by a teacher pipeline."""
from pathlib import Path
from typing import List

import spacy
import typer
from spacy.tokens import DocBin
from tqdm import tqdm
from wasabi import msg

from ..ngram_vectors.training_texts import training_texts
from . import app
from .errors import fail


@app.command("teacher-corpus")
def teacher_corpus_cli(
    teacher: str = typer.Argument(..., help="The trained pipeline whose words become the references (e.g. zh_cws_gd)."),
    output: Path = typer.Argument(..., help="The DocBin (.spacy) to write."),
    sources: List[Path] = typer.Argument(..., help="Training splits only: DocBins (.spacy) or review CSVs (.csv)."),
    batch_size: int = typer.Option(256, "--batch-size", help="nlp.pipe batch size."),
):
    """Segment raw training-split text with a teacher pipeline, as a student's data.

    Sequence-level knowledge distillation (Kim & Rush 2016): each text of
    SOURCES becomes one Doc whose tokens are TEACHER's words; train a smaller
    student on OUTPUT beside the gold corpus. Never give it dev or test text."""
    if output.suffix != ".spacy":
        fail(f"{output}: the output must be a DocBin ending in .spacy")
    try:
        texts = list(training_texts(sources))
        nlp = spacy.load(teacher)
    except (OSError, ValueError) as err:
        fail(str(err))
    docs = DocBin(attrs=["ORTH", "SPACY"])
    characters = 0
    for doc in tqdm(nlp.pipe(texts, batch_size=batch_size), total=len(texts), unit="text", mininterval=30):
        docs.add(doc)
        characters += len(doc.text)
    output.parent.mkdir(parents=True, exist_ok=True)
    docs.to_disk(output)
    msg.good(f"{len(texts):,} texts ({characters:,} characters) segmented by {teacher} -> {output}")
