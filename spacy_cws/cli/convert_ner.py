"""``python -m spacy_cws convert-ner``: character-per-line NER file -> DocBin."""
from pathlib import Path

import typer
from spacy.tokens import DocBin
from spacy.vocab import Vocab
from wasabi import msg

from ..corpora.tagged_characters import entity_counts, read_tagged_characters, sentence_doc
from . import app


@app.command("convert-ner")
def convert_ner_cli(
    input_path: Path = typer.Argument(..., help="CHARACTER TAG per line, a blank line after each sentence (BIO, BIOES or BMES; .xz allowed)."),
    output_path: Path = typer.Argument(..., help="DocBin (.spacy) to write."),
):
    """Convert Resume NER / MSRA NER to a DocBin: one Doc per sentence, its
    tokens the characters (no spaces), its entities from the tags. Every
    entity aligns with character tokens, so none is dropped; the counts per
    label are printed."""
    try:
        sentences = list(read_tagged_characters(input_path))
    except (FileNotFoundError, ValueError) as err:  # CorpusFormatError names file and line
        msg.fail(str(err), exits=1)
    vocab = Vocab()
    doc_bin = DocBin()
    for sentence in sentences:
        doc_bin.add(sentence_doc(vocab, sentence))
    output_path.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output_path)
    counts = entity_counts(sentences)
    msg.good(
        f"Wrote {len(sentences):,} sentences, {sum(len(s.characters) for s in sentences):,} characters "
        f"and {sum(counts.values()):,} entities to {output_path}"
    )
    orphans = sum(s.orphans for s in sentences)
    if orphans:
        msg.warn(f"{orphans:,} tag(s) continued no entity and began one (read as conlleval does)")
    msg.table([(label, f"{n:,}") for label, n in counts.items()], header=("label", "entities"), aligns=("l", "r"))
