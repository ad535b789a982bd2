"""The commands around a trained pipeline, in process (typer's CliRunner):
prepare a SIGHAN-style corpus, evaluate on it, write the model card, convert
to a tokenizer or to float16, segment by criterion."""
import json

import pytest
import spacy
import srsly
from spacy.tokens import DocBin

from spacy_cws.corpora.catalog import get_corpus

from ..segmentation_data import FINE, SENTENCES, TEXTS
from .cli_calls import invoke, invoke_ok

def _words(nlp, texts):
    return [[token.text for token in doc] for doc in nlp.pipe(texts)]


@pytest.fixture(scope="module")
def sighan_assets(tmp_path_factory):
    """A SIGHAN 2005-style corpus ("pku" in the catalog layout): training file
    (CRLF, U+3000 separators), official word list, raw test input and gold."""
    assets = tmp_path_factory.mktemp("assets")
    files = get_corpus("pku")
    paths = {field: files.path(assets, field) for field in ("train", "train_words", "test_raw", "test_gold")}
    paths["train"].parent.mkdir(parents=True)
    paths["train"].write_bytes("".join(s.replace(" ", "\u3000") + "\r\n" for s in SENTENCES * 3).encode("utf-8"))
    paths["train_words"].write_text("新华社\n北京\n城市\n", encoding="utf-8")
    paths["test_raw"].write_text("".join(text + "\n" for text in TEXTS), encoding="utf-8")
    paths["test_gold"].write_text("".join(s + "\n" for s in SENTENCES), encoding="utf-8")
    return assets, paths


@pytest.fixture(scope="module")
def prepared(sighan_assets, tmp_path_factory):
    out = tmp_path_factory.mktemp("prepared") / "pku"
    invoke_ok("prepare", "pku", sighan_assets[0], out, "--dev-fraction", "0.25")
    return out


def test_prepare_keeps_official_files_and_splits_dev(sighan_assets, prepared):
    _, paths = sighan_assets
    nlp = spacy.blank("zh")
    train = list(spacy.tokens.DocBin().from_disk(prepared / "train.spacy").get_docs(nlp.vocab))
    dev = list(spacy.tokens.DocBin().from_disk(prepared / "dev.spacy").get_docs(nlp.vocab))
    assert (len(train), len(dev)) == (18, 6)  # 24 sentences, the last quarter (rounded up) dev
    assert [[t.text for t in doc] for doc in dev] == [s.split() for s in (SENTENCES * 3)[18:]]
    assert {doc._.cws_criterion for doc in train + dev} == {"pku"}
    assert (prepared / "train_words.txt").read_bytes() == paths["train_words"].read_bytes()
    assert (prepared / "test_input.utf8").read_bytes() == paths["test_raw"].read_bytes()
    assert (prepared / "test_gold.utf8").read_bytes() == paths["test_gold"].read_bytes()


def test_evaluate_and_model_meta(trained_nlp, prepared, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    metrics, system = tmp_path / "metrics.json", tmp_path / "system.seg"
    invoke_ok("evaluate", tmp_path / "nlp", prepared, "-o", metrics, "--system-output", system)
    official = srsly.read_json(metrics)["official"]
    assert system.read_text(encoding="utf-8").splitlines() == [" ".join(words) for words in _words(trained_nlp, TEXTS)]
    scored = invoke_ok("score", prepared / "test_gold.utf8", system, "--train-words", prepared / "train_words.txt")
    from_score = json.loads(scored.stdout)
    assert from_score == pytest.approx({key: official[key] for key in from_score})
    invoke_ok("model-meta", "pku", metrics, tmp_path / "meta.json")
    meta = srsly.read_json(tmp_path / "meta.json")
    assert meta["spacy_cws_test_scores"]["f1"] == official["f1"]
    # The precision the scores were measured in: the trained pipeline's (the factory default, float32).
    assert (
        meta["spacy_cws_test_scores"]["inference_precision"] == trained_nlp.get_pipe("gd_segmenter").inference_precision
    )
    assert meta["spacy_cws_test_scores"]["precision"] == official["precision"]
    assert "SIGHAN 2005" in meta["license"]
    # A student names its teacher by folder, with the corpora the teacher was trained on.
    invoke_ok("model-meta", "pku", metrics, tmp_path / "student.json", "--distilled-from", tmp_path / "nlp",
              "--teacher-corpus", "sxu")
    student = srsly.read_json(tmp_path / "student.json")
    assert f"Distilled from the pipeline {tmp_path / 'nlp'}" in student["description"]
    assert "its teacher trained on sxu data" in student["license"]
    result = invoke("model-meta", "pku", metrics, tmp_path / "orphan.json", "--teacher-corpus", "sxu")
    assert result.exit_code != 0 and "--distilled-from" in result.output and not (tmp_path / "orphan.json").exists()


def test_to_tokenizer_gives_the_same_words(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    invoke_ok("to-tokenizer", tmp_path / "nlp", tmp_path / "tokenizer")
    converted = spacy.load(tmp_path / "tokenizer")
    assert converted.pipe_names == []
    assert _words(converted, TEXTS) == _words(trained_nlp, TEXTS)


def test_half_precision_halves_the_weights_file_and_keeps_the_words(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    invoke_ok("half-precision", tmp_path / "nlp", tmp_path / "half")
    full_size = (tmp_path / "nlp" / "gd_segmenter" / "model").stat().st_size
    half_size = (tmp_path / "half" / "gd_segmenter" / "model").stat().st_size
    assert half_size < 0.6 * full_size
    assert _words(spacy.load(tmp_path / "half"), TEXTS) == _words(trained_nlp, TEXTS)


def test_half_precision_drops_the_strings_of_segmenter_pipelines_only(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    assert len(srsly.read_json(tmp_path / "nlp" / "vocab" / "strings.json")) > 20
    invoke_ok("half-precision", tmp_path / "nlp", tmp_path / "half", "--drop-strings")
    assert srsly.read_json(tmp_path / "half" / "vocab" / "strings.json") == []
    assert _words(spacy.load(tmp_path / "half"), TEXTS) == _words(trained_nlp, TEXTS)
    with_sentencizer = spacy.load(tmp_path / "nlp")
    with_sentencizer.add_pipe("sentencizer")
    with_sentencizer.to_disk(tmp_path / "two")
    result = invoke("half-precision", tmp_path / "two", tmp_path / "out", "--drop-strings")
    assert result.exit_code == 1 and "sentencizer" in result.stderr and not (tmp_path / "out").exists()


def test_segment_by_criterion(two_criteria_nlp, tmp_path):
    two_criteria_nlp.to_disk(tmp_path / "nlp")
    (tmp_path / "in.txt").write_text("".join(text + "\n" for text in TEXTS), encoding="utf-8")
    for criterion, expected in (("fine", FINE), ("coarse", SENTENCES)):
        result = invoke_ok("segment", tmp_path / "in.txt", "--model", tmp_path / "nlp", "--criterion", criterion)
        assert result.stdout.splitlines() == expected
    unknown = invoke("segment", tmp_path / "in.txt", "--model", tmp_path / "nlp", "-c", "pku")
    assert unknown.exit_code == 1 and "pku" in unknown.stderr and unknown.stdout == ""


def test_teacher_corpus_keeps_each_text_with_the_teachers_words(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "teacher")
    source = tmp_path / "reviews.csv"
    source.write_text("label,review\n" + "".join(f"1,{text}\n" for text in TEXTS) + "0,\n", encoding="utf-8")
    invoke_ok("teacher-corpus", tmp_path / "teacher", tmp_path / "teacher.spacy", source)
    docs = list(DocBin().from_disk(tmp_path / "teacher.spacy").get_docs(trained_nlp.vocab))
    assert [doc.text for doc in docs] == TEXTS  # the empty review is skipped
    assert [[token.text for token in doc] for doc in docs] == _words(trained_nlp, TEXTS)


def test_teacher_corpus_refuses_an_output_that_is_not_a_docbin(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "teacher")
    result = invoke("teacher-corpus", tmp_path / "teacher", tmp_path / "out.txt", tmp_path / "x.csv")
    assert result.exit_code != 0
    assert "must be a DocBin" in result.output
