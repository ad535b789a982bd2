"""Every command that takes a pipeline, run once by name with a shipped one on
real data, and ``prepare``, ``evaluate``, ``score`` and ``model-meta`` on the
real CTB6 corpus: the shipped pipelines' CTB6 test F1 must reach the floors
that issue 39 set, whatever their model cards say."""
import csv
import itertools
import json
import warnings

import pytest
import spacy
import srsly
from spacy.tokens import DocBin
from thinc.api import Config
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.segmenter.moved_settings import MOVED_SETTINGS
from spacy_cws.segmenter.unbroken_spans import DEFAULT_PATTERNS
from spacy_cws.tagging import TAGGING_COMPONENTS

from ..segmentation_data import criterion_words

# The lowest official CTB6 test F1 each shipped pipeline may have (issue 39).
F1_FLOORS = {"zh_cws_gd": 0.960, "zh_cws_gd_sm": 0.955}
N_LINES = 200  # the CTB6 test lines (or reviews) the other commands segment
BATCH_SIZE = 64  # one batch size for a command and its in-process reference: the same float sums


def run(*args):
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def words(nlp, texts):
    return [[token.text for token in doc] for doc in nlp.pipe(texts, batch_size=BATCH_SIZE)]


@pytest.fixture(scope="module")
def ctb6_lines(prepared_ctb6):
    return (prepared_ctb6 / "test_input.utf8").read_text(encoding="utf-8").splitlines()[:N_LINES]


@pytest.fixture(scope="module")
def sm_words(zh_cws_gd_sm_nlp, ctb6_lines):
    """zh_cws_gd_sm's words of ctb6_lines, in process."""
    return words(zh_cws_gd_sm_nlp, ctb6_lines)


@pytest.fixture(scope="module", params=sorted(F1_FLOORS))
def evaluated(request, prepared_ctb6, tmp_path_factory):
    """``evaluate`` of a shipped pipeline, loaded by name, on the whole CTB6 test set:
    (name, its metrics, its system output)."""
    folder = tmp_path_factory.mktemp(request.param)
    metrics, system = folder / "metrics.json", folder / "system.seg"
    run("evaluate", request.param, prepared_ctb6, "-o", metrics, "--system-output", system)
    return request.param, srsly.read_json(metrics), system


def test_prepare_writes_the_real_test_set(shared_data, prepared_ctb6):
    gold = list(read_segmented(shared_data / "ctb6" / "test.seg", "sighan"))
    gold_lines = (prepared_ctb6 / "test_gold.utf8").read_text(encoding="utf-8").splitlines()
    assert gold_lines == [" ".join(s.words) for s in gold]
    input_lines = (prepared_ctb6 / "test_input.utf8").read_text(encoding="utf-8").splitlines()
    assert input_lines == ["".join(s.words) for s in gold]
    train = {word for s in read_segmented(shared_data / "ctb6" / "train.seg", "sighan") for word in s.words}
    assert set((prepared_ctb6 / "train_words.txt").read_text(encoding="utf-8").split()) == train
    assert len(DocBin().from_disk(prepared_ctb6 / "test.spacy")) == len(gold)


def test_evaluate_reaches_the_f1_floor(evaluated, prepared_ctb6):
    name, metrics, system = evaluated
    official = metrics["official"]
    assert official["f1"] >= F1_FLOORS[name]
    gold = (prepared_ctb6 / "test_gold.utf8").read_text(encoding="utf-8").splitlines()
    system_lines = system.read_text(encoding="utf-8").splitlines()
    assert ["".join(line.split()) for line in system_lines] == ["".join(line.split()) for line in gold]
    assert official["true_words"] == sum(len(line.split()) for line in gold)
    assert official["test_words"] == sum(len(line.split()) for line in system_lines)


def test_score_and_model_meta_give_evaluates_measures(evaluated, prepared_ctb6, tmp_path):
    _, metrics, system = evaluated
    words = prepared_ctb6 / "train_words.txt"
    scored = json.loads(run("score", prepared_ctb6 / "test_gold.utf8", system, "--train-words", words).stdout)
    assert scored == pytest.approx({key: metrics["official"][key] for key in scored})
    srsly.write_json(tmp_path / "metrics.json", metrics)
    run("model-meta", "ctb6", tmp_path / "metrics.json", tmp_path / "meta.json")
    card = srsly.read_json(tmp_path / "meta.json")["spacy_cws_test_scores"]
    assert (card["f1"], card["oov_recall"]) == (metrics["official"]["f1"], metrics["official"]["oov_recall"])


def test_segment_gives_the_pipelines_words(zh_cws_gd_nlp, ctb6_lines, tmp_path):
    (tmp_path / "in.txt").write_text("".join(line + "\n" for line in ctb6_lines), encoding="utf-8")
    run("segment", tmp_path / "in.txt", "--model", "zh_cws_gd", "-o", tmp_path / "out.txt", "--batch-size", BATCH_SIZE)
    expected = [system_line(doc) for doc in zh_cws_gd_nlp.pipe(ctb6_lines, batch_size=BATCH_SIZE)]
    assert (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines() == expected


def test_to_tokenizer_gives_the_pipelines_words(sm_words, ctb6_lines, tmp_path):
    run("to-tokenizer", "zh_cws_gd_sm", tmp_path / "tokenizer")
    converted = spacy.load(tmp_path / "tokenizer")
    assert converted.pipe_names == list(TAGGING_COMPONENTS)  # the tagger stays, now behind the tokenizer
    assert words(converted, ctb6_lines) == sm_words
    tags = [[token.tag_ for token in doc] for doc in converted.pipe(ctb6_lines[:20])]
    assert tags == [[token.tag_ for token in doc] for doc in spacy.load("zh_cws_gd_sm").pipe(ctb6_lines[:20])]


def test_half_precision_of_float16_weights_keeps_the_words(sm_words, ctb6_lines, tmp_path):
    """The shipped weights are float16 already: converting them again changes no word."""
    run("half-precision", "zh_cws_gd_sm", tmp_path / "half")
    assert words(spacy.load(tmp_path / "half"), ctb6_lines) == sm_words


def test_teacher_corpus_keeps_each_review_with_the_teachers_words(zh_cws_gd_nlp, shared_data, tmp_path):
    with open(shared_data / "textcat" / "waimai_10k" / "waimai_10k.csv", encoding="utf-8", newline="") as stream:
        rows = list(itertools.islice(csv.DictReader(stream), N_LINES))
    source = tmp_path / "waimai.csv"
    with open(source, "w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, ["label", "review"])
        writer.writeheader()
        writer.writerows(rows)
    run("teacher-corpus", "zh_cws_gd", tmp_path / "teacher.spacy", source, "--batch-size", BATCH_SIZE)
    docs = list(DocBin().from_disk(tmp_path / "teacher.spacy").get_docs(zh_cws_gd_nlp.vocab))
    reviews = [row["review"] for row in rows if row["review"].strip()]
    assert [doc.text for doc in docs] == reviews
    assert [[token.text for token in doc] for doc in docs] == words(zh_cws_gd_nlp, reviews)


def test_configure_makes_pku_the_default_criterion(zh_cws_gd_nlp, shared_data, tmp_path):
    run("configure", "zh_cws_gd", tmp_path / "pku", "--criterion", "pku")
    pku = get_corpus("pku")
    texts = ["".join(s.words) for s in read_segmented(pku.path(shared_data, "test_gold"), pku.format)][: N_LINES // 2]
    by_pku = criterion_words(zh_cws_gd_nlp, texts, "pku")
    assert criterion_words(spacy.load(tmp_path / "pku"), texts) == by_pku
    assert by_pku != criterion_words(zh_cws_gd_nlp, texts, "ctb6")  # the criterion matters on these lines


def test_configure_saves_a_copy_with_an_up_to_date_config(sm_words, ctb6_lines, tmp_path):
    """The package's config is up to date (earlier ones set settings that
    moved, read with a warning: tests/segmenter/test_settings.py): it loads
    without a warning, and configure's copy sets none of those settings,
    keeps the training settings (saved with the component) and gives the
    same words."""
    with warnings.catch_warnings(record=True) as loading:
        warnings.simplefilter("always")
        spacy.load("zh_cws_gd_sm")
    assert not [str(w.message) for w in loading if "gd_segmenter" in str(w.message)]
    run("configure", "zh_cws_gd_sm", tmp_path / "copy")
    block = Config().from_disk(tmp_path / "copy" / "config.cfg")["components"]["gd_segmenter"]
    assert not set(MOVED_SETTINGS) & set(block) and block["unbroken_patterns"] == DEFAULT_PATTERNS
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        copy = spacy.load(tmp_path / "copy")
    assert not [w for w in caught if "gd_segmenter" in str(w.message)]
    segmenter = copy.get_pipe("gd_segmenter")
    assert (segmenter.cfg["bigram_min_count"], segmenter.cfg["jackknife_folds"]) == (3, 10)
    assert words(copy, ctb6_lines) == sm_words


def test_add_criterion_keeps_the_old_criteria(ctb6_lines, tmp_path):
    run("add-criterion", "zh_cws_gd", tmp_path / "zx", "zx")
    added = spacy.load(tmp_path / "zx")
    assert added.get_pipe("gd_segmenter").criteria == ["ctb6", "pku", "zx"]
    # Only the new criterion learns: the config's train_criteria_only does not override what the component saved.
    assert added.get_pipe("gd_segmenter").cfg["train_criteria_only"] is True
    # A new criterion drops the graph: the copy runs on torch, so it is compared with the package on torch
    # (the graph's int8 products give a few other words: docs/experiments/inference.md).
    on_torch = spacy.load("zh_cws_gd", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    assert criterion_words(added, ctb6_lines, "ctb6") == criterion_words(on_torch, ctb6_lines, "ctb6")
