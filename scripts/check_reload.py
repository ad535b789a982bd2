"""Save a trained pipeline, reload it, and compare its predictions on a corpus.

    python scripts/check_reload.py PIPELINE CORPUS.spacy

Runs PIPELINE over the Doc texts of CORPUS, writes the pipeline to a
temporary folder with nlp.to_disk, loads it back with spacy.load and runs it
again. Prints one JSON line: documents, characters, documents whose entities
or categories differ, and the largest absolute difference between the
``mwa_enricher`` vectors (doc._.mwa_vectors) of the two runs (null when the
pipeline has none). Exits 1 when anything differs.
"""
import json
import sys
import tempfile
from pathlib import Path

import numpy
import spacy
import typer
from spacy.tokens import DocBin


def predictions(nlp, texts):
    return [
        (
            [(e.start_char, e.end_char, e.label_) for e in doc.ents],
            {label: round(score, 6) for label, score in doc.cats.items()},
            getattr(doc._, "mwa_vectors", None) if doc.has_extension("mwa_vectors") else None,
        )
        for doc in nlp.pipe(texts, batch_size=64)
    ]


def main(pipeline: Path, corpus: Path):
    nlp = spacy.load(pipeline)
    texts = [doc.text for doc in DocBin().from_disk(corpus).get_docs(nlp.vocab)]
    before = predictions(nlp, texts)
    with tempfile.TemporaryDirectory() as folder:
        nlp.to_disk(folder)
        after = predictions(spacy.load(folder), texts)
    differ = sum(b[:2] != a[:2] for b, a in zip(before, after))
    vector_gaps = [float(numpy.abs(b[2] - a[2]).max()) for b, a in zip(before, after) if b[2] is not None and len(b[2])]
    result = {
        "pipeline": str(pipeline),
        "documents": len(texts),
        "characters": sum(len(t) for t in texts),
        "documents_differing": differ,
        "max_vector_difference": max(vector_gaps) if vector_gaps else None,
    }
    print(json.dumps(result))
    sys.exit(1 if differ or (vector_gaps and max(vector_gaps) > 0) else 0)


if __name__ == "__main__":
    typer.run(main)
