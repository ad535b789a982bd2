"""``python -m spacy_cws convert-ner``: character-per-line NER file -> DocBin."""
from pathlib import Path
from typing import List, Optional

import typer
from spacy.tokens import DocBin
from spacy.vocab import Vocab
from wasabi import msg

from ..corpora.tagged_characters import TaggedSentence, entity_counts, read_tagged_characters, sentence_doc
from . import app
from .errors import fail


@app.command("convert-ner")
def convert_ner_cli(
    input_path: Path = typer.Argument(
        ..., help="CHARACTER TAG per line, a blank line after each sentence (BIO, BIOES or BMES; .xz allowed)."
    ),
    output_path: Path = typer.Argument(..., help="DocBin (.spacy) to write."),
    dev_output: Optional[Path] = typer.Option(
        None,
        "--dev-output",
        help="DocBin for the last --dev-size sentences (a dev set held out of a corpus that has none, e.g. MSRA NER).",
    ),
    dev_size: int = typer.Option(0, "--dev-size", min=0, help="Sentences to hold out with --dev-output."),
):
    """Convert Resume NER / MSRA NER to a DocBin of character tokens.

    Convert Resume NER / MSRA NER to a DocBin: one Doc per sentence, its
    tokens the characters (no spaces), its entities from the tags. Every
    entity aligns with character tokens, so none is dropped; the counts per
    label are printed. With --dev-output the last --dev-size sentences go
    there instead."""
    if (dev_output is None) != (dev_size == 0):
        fail("Give --dev-output and --dev-size together (or neither).")
    try:
        sentences = list(read_tagged_characters(input_path))
    except (FileNotFoundError, ValueError) as err:  # CorpusFormatError names file and line
        fail(str(err))
    if dev_size >= len(sentences):
        fail(f"--dev-size {dev_size} leaves no training sentences: {input_path} has {len(sentences):,}.")
    vocab = Vocab()
    split = len(sentences) - dev_size
    write_sentences(vocab, sentences[:split], output_path)
    if dev_output is not None:
        write_sentences(vocab, sentences[split:], dev_output)


def write_sentences(vocab: Vocab, sentences: List[TaggedSentence], path: Path) -> None:
    """Write SENTENCES as Docs to the DocBin PATH and print their counts."""
    doc_bin = DocBin()
    for sentence in sentences:
        doc_bin.add(sentence_doc(vocab, sentence))
    path.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(path)
    counts = entity_counts(sentences)
    msg.good(
        f"Wrote {len(sentences):,} sentences, {sum(len(s.characters) for s in sentences):,} characters "
        f"and {sum(counts.values()):,} entities to {path}"
    )
    orphans = sum(s.orphans for s in sentences)
    if orphans:
        msg.warn(f"{orphans:,} tag(s) continued no entity and began one (read as conlleval does)")
    msg.table([(label, f"{n:,}") for label, n in counts.items()], header=("label", "entities"), aligns=("l", "r"))
