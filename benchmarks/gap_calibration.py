"""Calibration of ``doc._.gap_probs``: a reliability table per pipeline on a prepared corpus's dev set.

    python benchmarks/gap_calibration.py corpus/ctb6/dev.spacy zh_cws_gd zh_cws_gd_sm [--bins 10]

For every gap between two non-space characters of the gold Docs, the
pipeline's probability of a word boundary there (Segmenter.segment_with_probs)
against whether the gold has one. Prints, per pipeline, a Markdown table of
probability bins: gaps, mean predicted probability, observed boundary
frequency; and the expected calibration error (ECE: the gap-weighted mean of
|predicted - observed| over the bins).
"""
from pathlib import Path
from typing import List

import numpy
import spacy
import typer
from spacy.tokens import DocBin


def gold_gaps(docs) -> tuple:
    """Per Doc its text and bool (len(text) - 1,): a gold word starts after the gap."""
    texts, boundaries = [], []
    for doc in docs:
        edges = numpy.zeros(len(doc.text) + 1, dtype=bool)
        for token in doc:
            edges[token.idx] = edges[token.idx + len(token.text)] = True
        texts.append(doc.text)
        boundaries.append(edges[1:-1])
    return texts, boundaries


def reliability(probs: numpy.ndarray, gold: numpy.ndarray, bins: int) -> List[tuple]:
    """Per bin (low, high, gaps, mean predicted, observed frequency)."""
    edges = numpy.linspace(0.0, 1.0, bins + 1)
    which = numpy.clip(numpy.digitize(probs, edges[1:-1]), 0, bins - 1)
    rows = []
    for b in range(bins):
        chosen = which == b
        n = int(chosen.sum())
        rows.append(
            (
                edges[b],
                edges[b + 1],
                n,
                float(probs[chosen].mean()) if n else float("nan"),
                float(gold[chosen].mean()) if n else float("nan"),
            )
        )
    return rows


def main(corpus: Path, pipelines: List[str], bins: int = typer.Option(10, "--bins", min=2)):
    docs = list(DocBin().from_disk(corpus).get_docs(spacy.blank("zh").vocab))
    texts, gold = gold_gaps(docs)
    for name in pipelines:
        nlp = spacy.load(name)
        segmenter = next(component for _, component in nlp.pipeline if hasattr(component, "segment_with_probs"))
        _, probs = segmenter.segment_with_probs(texts)
        keep = [numpy.array([not (a.isspace() or b.isspace()) for a, b in zip(t, t[1:])], dtype=bool) for t in texts]
        p = numpy.concatenate([x[k] for x, k in zip(probs, keep)]) if probs else numpy.zeros(0)
        g = numpy.concatenate([x[k] for x, k in zip(gold, keep)]) if gold else numpy.zeros(0, dtype=bool)
        rows = reliability(p, g, bins)
        ece = sum(n * abs(pred - obs) for _, _, n, pred, obs in rows if n) / max(len(p), 1)
        print(f"\n{name} ({nlp.meta.get('version')}) on {corpus}: {len(p):,} gaps, ECE {ece:.4f}\n")
        print("| predicted | gaps | mean predicted | observed boundary frequency |")
        print("| --- | ---: | ---: | ---: |")
        for low, high, n, pred, obs in rows:
            print(
                f"| {low:.1f}-{high:.1f} | {n:,} | {pred:.3f} | {obs:.3f} |"
                if n
                else f"| {low:.1f}-{high:.1f} | 0 | - | - |"
            )


if __name__ == "__main__":
    typer.run(main)
