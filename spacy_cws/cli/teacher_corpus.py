"""``python -m spacy_cws teacher-corpus TEACHER OUTPUT SOURCES...``: raw text segmented by a teacher
pipeline or an ensemble of them, with their gap probabilities as soft targets if asked."""
from pathlib import Path
from typing import List, Optional

import typer
from spacy.tokens import DocBin
from tqdm import tqdm
from wasabi import msg

from ..distillation.ensemble import load_ensemble, pipeline_names, with_soft_targets
from ..ngram_vectors.training_texts import training_texts
from . import app
from .errors import fail
from .segment import CRITERION_OPTION


@app.command("teacher-corpus")
def teacher_corpus_cli(
    teacher: str = typer.Argument(
        ...,
        help="The trained pipeline whose words become the references (e.g. zh_cws_gd), or several joined by "
        "commas: an ensemble, their gap probabilities averaged.",
    ),
    output: Path = typer.Argument(..., help="The DocBin (.spacy) to write."),
    sources: List[Path] = typer.Argument(..., help="Training splits only: DocBins (.spacy) or review CSVs (.csv)."),
    batch_size: int = typer.Option(256, "--batch-size", help="nlp.pipe batch size."),
    soft: bool = typer.Option(
        False,
        "--soft",
        help="Also keep the teacher's gap probabilities as each Doc's soft targets (doc._.gap_targets), "
        "which training then learns instead of the words.",
    ),
    criterion: Optional[str] = CRITERION_OPTION,
):
    """Segment raw training-split text with a teacher pipeline, as a student's data.

    Sequence-level knowledge distillation (Kim & Rush 2016): each text of
    SOURCES becomes one Doc whose tokens are TEACHER's words; train a smaller
    student on OUTPUT beside the gold corpus. Never give it dev or test text.
    TEACHER may name several pipelines joined by commas (zh_cws_gd,zh_cws_gd_sm):
    an ensemble, whose words are the decision of their mean gap probabilities
    (a boundary where the mean is above 0.5). With --soft each Doc also keeps
    that mean as doc._.gap_targets (the DocBin stores user data): the student
    learns the probabilities (soft targets, Hinton et al. 2015), the gold
    corpus beside it its words. --criterion sets the criterion of every
    multi-criteria teacher, and marks each Doc as that criterion's words
    (doc._.cws_criterion), so that a multi-criteria student learns them as such."""
    if output.suffix != ".spacy":
        fail(f"{output}: the output must be a DocBin ending in .spacy")
    try:
        texts = list(training_texts(sources))
        ensemble = load_ensemble(pipeline_names(teacher), criterion)
    except (OSError, ValueError) as err:
        fail(str(err))
    docs = DocBin(attrs=["ORTH", "SPACY"], store_user_data=soft or criterion is not None)
    characters = 0
    for doc in tqdm(ensemble.pipe(texts, batch_size=batch_size), total=len(texts), unit="text", mininterval=30):
        if criterion is not None:
            doc._.cws_criterion = criterion
        docs.add(with_soft_targets(doc) if soft else doc)
        characters += len(doc.text)
    output.parent.mkdir(parents=True, exist_ok=True)
    docs.to_disk(output)
    targets = " with soft gap targets" if soft else ""
    msg.good(f"{len(texts):,} texts ({characters:,} characters) segmented by {teacher}{targets} -> {output}")
