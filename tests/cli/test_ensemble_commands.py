"""teacher-corpus with an ensemble of teachers and soft targets, and
ensemble-segment (distillation/ensemble.py), in process (typer's CliRunner)."""
import json

import numpy
import spacy
from spacy.tokens import DocBin

from spacy_cws.distillation.ensemble import SegmenterEnsemble

from ..segmentation_data import TEXTS
from .cli_calls import invoke, invoke_ok

def _reviews(tmp_path, texts):
    source = tmp_path / "reviews.csv"
    source.write_text("label,review\n" + "".join(f"1,{text}\n" for text in texts), encoding="utf-8")
    return source


def _fails_in_one_line(args, named):
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_one_teacher_without_soft_writes_todays_docbin(trained_nlp, tmp_path):
    """Byte for byte the DocBin of the teacher's own Docs, as teacher-corpus wrote it before ensembles."""
    trained_nlp.to_disk(tmp_path / "teacher")
    invoke_ok("teacher-corpus", tmp_path / "teacher", tmp_path / "teacher.spacy", _reviews(tmp_path, TEXTS))
    expected = DocBin(attrs=["ORTH", "SPACY"])
    for doc in spacy.load(tmp_path / "teacher").pipe(TEXTS):
        expected.add(doc)
    assert (tmp_path / "teacher.spacy").read_bytes() == expected.to_bytes()


def test_soft_teacher_corpus_of_an_ensemble_keeps_the_mean_as_targets(trained_nlp, zh_cws_gd_sm_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "teacher")
    teachers = f"{tmp_path / 'teacher'},zh_cws_gd_sm"
    source = _reviews(tmp_path, TEXTS)
    invoke_ok("teacher-corpus", teachers, tmp_path / "soft.spacy", source, "--soft")
    docs = list(DocBin().from_disk(tmp_path / "soft.spacy").get_docs(trained_nlp.vocab))
    ensemble = list(SegmenterEnsemble([spacy.load(tmp_path / "teacher"), zh_cws_gd_sm_nlp]).pipe(TEXTS))
    assert [doc.text for doc in docs] == TEXTS
    for doc, expected in zip(docs, ensemble, strict=True):
        assert [t.text for t in doc] == [t.text for t in expected]
        numpy.testing.assert_array_equal(doc._.gap_targets, expected._.gap_probs)
        assert doc._.gap_probs is None
    # Without --soft the same words, and no targets.
    invoke_ok("teacher-corpus", teachers, tmp_path / "hard.spacy", source)
    hard = list(DocBin().from_disk(tmp_path / "hard.spacy").get_docs(trained_nlp.vocab))
    assert [[t.text for t in doc] for doc in hard] == [[t.text for t in doc] for doc in docs]
    assert all(doc._.gap_targets is None for doc in hard)


def test_teacher_corpus_names_a_bad_teacher(tmp_path):
    source = _reviews(tmp_path, TEXTS[:2])
    _fails_in_one_line(["teacher-corpus", "zh_cws_gd_sm,no_such_pipeline", tmp_path / "o.spacy", source],
                       "no_such_pipeline")
    blank = spacy.blank("zh")
    blank.add_pipe("sentencizer")
    blank.to_disk(tmp_path / "blank")
    _fails_in_one_line(["teacher-corpus", f"zh_cws_gd_sm,{tmp_path / 'blank'}", tmp_path / "o.spacy", source],
                       "blank' cannot be an ensemble member: The pipeline has no gd_segmenter component")
    _fails_in_one_line(["teacher-corpus", "zh_cws_gd_sm", tmp_path / "o.spacy", source, "-c", "sxu"],
                       "'zh_cws_gd_sm': Unknown criterion 'sxu' for 'gd_segmenter': the known criteria are ctb6, pku")
    assert not (tmp_path / "o.spacy").exists()


def test_ensemble_segment_of_one_is_segment_and_scores(zh_cws_gd_sm_nlp, shared_data, tmp_path):
    gold = (shared_data / "ctb6" / "dev.seg").read_text(encoding="utf8").splitlines()[:30]
    (tmp_path / "gold.txt").write_text("".join(line + "\n" for line in gold), encoding="utf-8")
    (tmp_path / "raw.txt").write_text("".join("".join(line.split()) + "\n" for line in gold), encoding="utf-8")
    (tmp_path / "words.txt").write_text("上海\n浦东\n", encoding="utf-8")
    invoke_ok("ensemble-segment", "zh_cws_gd_sm", tmp_path / "raw.txt", "-o", tmp_path / "one.txt")
    invoke_ok("segment", tmp_path / "raw.txt", "-m", "zh_cws_gd_sm", "-o", tmp_path / "segment.txt")
    assert (tmp_path / "one.txt").read_bytes() == (tmp_path / "segment.txt").read_bytes()
    invoke_ok("ensemble-segment", "zh_cws_gd_sm,zh_cws_gd", tmp_path / "raw.txt", "-o", tmp_path / "two.txt")
    scores = json.loads(invoke_ok("score", tmp_path / "gold.txt", tmp_path / "two.txt", "--train-words",
                                tmp_path / "words.txt").stdout)
    assert 0.9 < scores["f1"] <= 1.0
    invoke_ok("ensemble-segment", "zh_cws_gd_sm,zh_cws_gd", tmp_path / "raw.txt", "-o", tmp_path / "two.jsonl",
            "-f", "jsonl", "--probs")
    records = [json.loads(line) for line in (tmp_path / "two.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [" ".join(record["words"]) for record in records] == (tmp_path / "two.txt").read_text().splitlines()
    assert all(len(record["gap_probs"]) == len(record["text"]) - 1 for record in records)


def test_ensemble_segment_names_what_is_wrong(tmp_path):
    raw = tmp_path / "raw.txt"
    raw.write_text("上海浦东\n", encoding="utf-8")
    _fails_in_one_line(["ensemble-segment", "zh_cws_gd_sm,absent_pipeline", raw, "-o", tmp_path / "o.txt"],
                       "absent_pipeline")
    _fails_in_one_line(["ensemble-segment", "zh_cws_gd_sm", raw, "-o", tmp_path / "o.txt", "--probs"],
                       "--probs writes jsonl")
    _fails_in_one_line(["ensemble-segment", "zh_cws_gd_sm", tmp_path / "absent.txt", "-o", tmp_path / "o.txt"],
                       "absent.txt")


def test_teacher_corpus_by_a_criterion_marks_the_docs_as_its_words(tmp_path):
    """A multi-criteria student learns the teacher's words as the criterion they were segmented by."""
    source = _reviews(tmp_path, TEXTS)
    invoke_ok("teacher-corpus", "zh_cws_gd", tmp_path / "pku.spacy", source, "--criterion", "pku", "--soft")
    nlp = spacy.load("zh_cws_gd")
    docs = list(DocBin().from_disk(tmp_path / "pku.spacy").get_docs(nlp.vocab))
    assert [doc._.cws_criterion for doc in docs] == ["pku"] * len(TEXTS)
    by_pku = list(SegmenterEnsemble([nlp], criterion="pku").pipe(TEXTS))
    assert [[t.text for t in doc] for doc in docs] == [[t.text for t in doc] for doc in by_pku]


def test_ensemble_segment_takes_the_longest_line_it_is_told(tmp_path):
    """An over-long line names --max-line-chars, which ensemble-segment accepts as segment does."""
    source = tmp_path / "input.txt"
    source.write_text("上海浦东开发与法制建设同步\n", encoding="utf-8")
    output = tmp_path / "out.txt"
    _fails_in_one_line(
        ["ensemble-segment", "zh_cws_gd_sm", source, "--output", output, "--max-line-chars", "5"], "--max-line-chars"
    )
    invoke_ok("ensemble-segment", "zh_cws_gd_sm", source, "--output", output, "--max-line-chars", "20")
    assert output.read_text(encoding="utf-8").replace(" ", "") == "上海浦东开发与法制建设同步\n"
