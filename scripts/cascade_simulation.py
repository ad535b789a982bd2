"""Issue 18: would a student -> teacher cascade give the teacher's words at the student's pace? A simulation.

    python scripts/cascade_simulation.py corpus/ctb6 --student zh_cws_gd_sm --teacher zh_cws_gd \\
        [--margins 0.5,1,2,3,4] [--radii 4,8,16] [--output metrics/cascade_simulation.md]

Both pipelines (GD-Transformers: gap scores) score every gap of CORPUS's
test input (``test_input.utf8``, from ``prepare``) in float32. A gap whose
student logit margin |s_boundary - s_none| is below ``margin`` is uncertain,
and takes the teacher's decision instead of the student's; every other gap
keeps the student's. The table gives the official SIGHAN F1 / OOV recall of
those words against ``test_gold.utf8`` (``train_words.txt`` for OOV), the
share of gaps that are uncertain, and for each ``radius`` the share of units
the teacher would have to read if it ran on a window of radius units either
side of each uncertain gap (overlapping windows merged). The teacher's
decisions here are those it makes with the whole sentence in view: an
upper bound for a cascade whose teacher sees only the windows.

A second table is exact rather than a bound: the teacher re-segments every
whole sequence (sentence, or window of a long text) holding an uncertain gap,
and the student's words stand elsewhere; it gives the F1 / OOV recall and the
share of units the teacher reads. Nothing is timed: with student and teacher
chars/s measured in the same run (e.g. scripts/benchmark_inference.py), a
cascade costs about 1 / student + coverage / teacher seconds per character.
"""
from pathlib import Path
from typing import List, Optional, Tuple

import numpy
import spacy
import typer

from spacy_cws.scoring.sighan import read_byte_lines, read_dictionary, score_lines
from spacy_cws.segmenter.decoding import decode_words


def gap_margins(pipeline: str, texts: List[str]) -> Tuple[list, list, List[List[numpy.ndarray]]]:
    """Views, sequence spans, and per text per sequence float32 (n,) of
    s_boundary - s_none for the gap before each unit (label_schemes.GapScheme's head 0).

    RAISES ValueError: for a pipeline whose model does not score gaps.
    """
    nlp = spacy.load(pipeline, config={"components": {"gd_segmenter": {"precision": "float32"}}})
    segmenter = nlp.get_pipe("gd_segmenter")
    if segmenter.model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(f"'{pipeline}' tags B/M/E/S: the simulation needs gap scores (a GD-Transformer)")
    views, spans, sequences = segmenter._featurize(texts, [None] * len(texts))
    scores = iter(segmenter._score_sequences(sequences))
    margins = []
    for text_spans in spans:
        text_margins = []
        for _ in text_spans:
            score = next(scores)[0, :-1]
            text_margins.append(score[:, 1] - score[:, 0])
        margins.append(text_margins)
    return views, spans, margins


def covered_units(uncertain: numpy.ndarray, n_units: int, radius: int) -> int:
    """Units within ``radius`` of any uncertain unit (bool (n,)), windows merged."""
    if not uncertain.any():
        return 0
    # A difference array: +1 where a window opens, -1 after it closes.
    edges = numpy.zeros(n_units + 1, dtype=numpy.int64)
    at = numpy.flatnonzero(uncertain)
    numpy.add.at(edges, numpy.maximum(at - radius, 0), 1)
    numpy.add.at(edges, numpy.minimum(at + radius + 1, n_units), -1)
    return int((numpy.cumsum(edges[:-1]) > 0).sum())


def main(
    corpus: Path = typer.Argument(..., help="A prepared corpus folder (test_input.utf8, test_gold.utf8, train_words.txt)."),
    student: str = typer.Option("zh_cws_gd_sm", "--student", help="The fast pipeline."),
    teacher: str = typer.Option("zh_cws_gd", "--teacher", help="The accurate pipeline."),
    margins: str = typer.Option("0.5,1,2,3,4", "--margins", help="Student logit margins below which a gap is the teacher's."),
    radii: str = typer.Option("4,8,16", "--radii", help="Teacher window radii (units) for the coverage columns."),
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the table here (Markdown)."),
):
    texts = [line.decode("utf-8").rstrip("\r\n") for line in read_byte_lines(corpus / "test_input.utf8")]
    gold = read_byte_lines(corpus / "test_gold.utf8")
    train_words = read_dictionary(corpus / "train_words.txt")
    views, spans, student_margins = gap_margins(student, texts)
    teacher_spans, teacher_margins = gap_margins(teacher, texts)[1:]
    if teacher_spans != spans:
        raise ValueError("The student and the teacher cut the texts into different sequences (max_length differs)")
    radius_list = [int(r) for r in radii.split(",")]
    n_units = sum(len(m) for text in student_margins for m in text)

    def official(starts_by_text: List[List[numpy.ndarray]]) -> Tuple[float, float]:
        """Official F1 and OOV recall (percent) of the words these gap decisions make."""
        system = []
        for text, view, text_spans, starts in zip(texts, views, spans, starts_by_text):
            words = decode_words(view, text_spans, starts)
            system.append(" ".join(text[a:b] for a, b in words).encode("utf-8"))
        measures = score_lines(gold, system, train_words)
        return 100 * measures.f1, 100 * measures.oov_recall

    def score(margin: float) -> Tuple[float, float, float, List[float]]:
        starts_by_text, uncertain_count, covered = [], 0, [0] * len(radius_list)
        for mine, theirs in zip(student_margins, teacher_margins):
            starts = []
            for own, other in zip(mine, theirs):
                uncertain = numpy.abs(own) < margin
                uncertain_count += int(uncertain.sum())
                covered = [c + covered_units(uncertain, len(own), r) for c, r in zip(covered, radius_list)]
                starts.append(numpy.where(uncertain, other > 0, own > 0))
            starts_by_text.append(starts)
        f1, oov = official(starts_by_text)
        return f1, oov, uncertain_count / n_units, [c / n_units for c in covered]

    def score_sequences(margin: float) -> Tuple[float, float, float]:
        """The teacher's words for every sequence with a gap of margin < ``margin``
        (gap 0, before the first unit, is always a boundary), the student's elsewhere."""
        starts_by_text, read = [], 0
        for mine, theirs in zip(student_margins, teacher_margins):
            starts = []
            for own, other in zip(mine, theirs):
                uncertain = bool((numpy.abs(own[1:]) < margin).any())
                read += len(own) if uncertain else 0
                starts.append((other if uncertain else own) > 0)
            starts_by_text.append(starts)
        f1, oov = official(starts_by_text)
        return f1, oov, read / n_units

    policies = [("none (the student)", 0.0)] + [(f"margin < {m}", float(m)) for m in margins.split(",")]
    policies.append(("all (the teacher)", float("inf")))
    lines = [
        f"{corpus / 'test_input.utf8'}: {n_units:,} units; student `{student}`, teacher `{teacher}` (float32)",
        "",
        "Gap by gap (the teacher's decision on each uncertain gap, made with the whole sentence in view):",
        "",
        "| gaps the teacher decides | F1 | OOV recall | uncertain gaps | "
        + " | ".join(f"units the teacher reads, radius {r}" for r in radius_list) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(radius_list),
    ]
    for label, margin in policies:
        f1, oov, share, coverage = score(margin)
        lines.append(
            f"| {label} | {f1:.2f} | {oov:.2f} | {100 * share:.1f}% | " + " | ".join(f"{100 * c:.1f}%" for c in coverage) + " |"
        )
    lines += [
        "",
        "Sequence by sequence (the teacher re-segments each whole sequence holding an uncertain gap):",
        "",
        "| sequences the teacher re-segments | F1 | OOV recall | units the teacher reads |",
        "|---|---:|---:|---:|",
    ]
    for label, margin in policies:
        f1, oov, share = score_sequences(margin)
        lines.append(f"| {label.replace('margin', 'a gap of margin')} | {f1:.2f} | {oov:.2f} | {100 * share:.1f}% |")
    table = "\n".join(lines) + "\n"
    typer.echo(table)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    typer.run(main)
