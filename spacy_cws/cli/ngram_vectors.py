"""``python -m spacy_cws ngram-vectors OUTPUT SOURCE...``: pretrain unigram and bigram vectors."""
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..features.character_view import Normaliser
from ..ngram_vectors import pretrain_ngram_vectors
from ..ngram_vectors.training_texts import training_texts
from . import app
from .errors import fail


@app.command("ngram-vectors")
def ngram_vectors_cli(
    output: Path = typer.Argument(..., help="Folder to write unigrams.w2v, bigrams.w2v and meta.json into."),
    sources: List[Path] = typer.Argument(..., help="Training splits only: DocBins (.spacy) or review CSVs (.csv)."),
    unigram_width: int = typer.Option(128, help="Unigram vector size: the model's unigram embedding width."),
    bigram_width: int = typer.Option(64, help="Bigram vector size: the model's bigram_width."),
    unigram_min_count: int = typer.Option(2, help="Keep unigrams seen at least this often."),
    bigram_min_count: int = typer.Option(3, help="Keep bigrams seen at least this often."),
    window: int = typer.Option(5, help="word2vec context window."),
    epochs: int = typer.Option(5, help="word2vec epochs."),
    seed: int = typer.Option(0, help="word2vec seed."),
    fold_width: bool = typer.Option(True, help="As the segmenter's fold_width."),
    collapse_runs: bool = typer.Option(True, help="As the segmenter's collapse_runs."),
    opencc: Optional[str] = typer.Option(None, help="As the segmenter's opencc (e.g. t2s)."),
):
    """Pretrain character and bigram vectors (word2vec) for a segmenter.

    Give the output folder as ngram_vectors in the segmenter's
    initialize.components.NAME block."""
    try:
        texts = list(training_texts(sources))
        vectors = pretrain_ngram_vectors(
            texts, Normaliser(fold_width=fold_width, collapse_runs=collapse_runs, opencc=opencc),
            unigram_width=unigram_width, bigram_width=bigram_width, unigram_min_count=unigram_min_count,
            bigram_min_count=bigram_min_count, window=window, epochs=epochs, seed=seed,
            meta={"sources": [str(path) for path in sources], "texts": len(texts),
                  "characters": sum(map(len, texts))},
        )
    except (FileNotFoundError, ValueError, ImportError) as err:
        fail(str(err))
    vectors.to_disk(output)
    msg.good(
        f"{len(vectors.unigrams):,} unigram and {len(vectors.bigrams):,} bigram vectors from "
        f"{len(texts):,} texts ({sum(map(len, texts)):,} characters) -> {output}"
    )
