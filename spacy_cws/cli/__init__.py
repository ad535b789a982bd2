"""Command-line interface: ``python -m spacy_cws COMMAND``."""
import typer

app = typer.Typer(
    name="spacy_cws",
    help="spacy-cws: Chinese word segmentation for spaCy.",
    no_args_is_help=True,
    add_completion=False,
)

# Each command module registers itself on ``app`` when imported.
from . import convert, fetch, score  # noqa: E402,F401
from . import (  # noqa: E402,F401
    add_charlm, add_criterion, average_weights, configure, convert_ner, convert_pos, convert_sentiment,
    ensemble_segment, evaluate, export_onnx, half_precision, join_corpora, model_meta, ngram_vectors, prepare,
    pretrain_charlm, report, segment, teacher_corpus, to_tokenizer, train,
)
from . import adapt  # noqa: E402,F401
