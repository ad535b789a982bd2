"""The peer segmenters and the benchmark harness, through its command lines
(tests/benchmarks/harness.py), on one sentence and on a 20-line slice of a test
set (never the full benchmark)."""
import json
import os
import subprocess
import sys

import pytest
import spacy

from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.formats import read_segmented

from ..conftest import REPO_ROOT
from .harness import benchmark_peers, run_worker, system_lines, write_test_set

# Full-width digits and letters, Latin, a space and punctuation: the inputs
# on which peers most often drop or change characters.
SENTENCE = "新华社北京二月十二日电，ＡＢＣ公司在2009年推出iPhone 手机，售价５９９９元。"
# The test set the peers segment: SENTENCE first, an empty line among them.
TEXTS = [SENTENCE, "", "北京大学生前来应聘", SENTENCE[::-1]] * 5
# pkuseg's pretrained mixed model, as `scripts/train_pkuseg.py fetch-mixed` puts it.
PKUSEG_MIXED = os.environ.get("SPACY_CWS_PKUSEG_MIXED", REPO_ROOT / "assets" / "pkuseg_mixed")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """TEXTS as a test set the harness has prepared (benchmark_peers.py, no peer)."""
    return write_test_set(tmp_path_factory.mktemp("texts") / "assets", TEXTS)


def _assert_segments(prepared, label):
    """The words the worker wrote for SENTENCE (whitespace tokens dropped, as
    the harness drops them)."""
    words = system_lines(prepared, label)[0].split(" ")
    assert len(words) > 1
    assert "".join("".join(words).split()) == "".join(SENTENCE.split())


@pytest.mark.parametrize("name", ["jieba", "thulac", "spacy-zh-char", "spacy-zh-jieba"])
def test_builtin_peer_words_join_back(name, prepared):
    run_worker(prepared, name, name)
    _assert_segments(prepared, name)


def test_pkuseg_mixed_words_join_back(prepared):
    if not os.path.isdir(PKUSEG_MIXED):
        pytest.skip(f"pkuseg mixed model not found at {PKUSEG_MIXED} (scripts/train_pkuseg.py fetch-mixed)")
    run_worker(prepared, "pkuseg-mixed", "pkuseg-mixed", PKUSEG_MIXED)
    _assert_segments(prepared, "pkuseg-mixed")


def test_pipeline_peer_loads_a_path(prepared, tmp_path):
    spacy.blank("zh").to_disk(tmp_path / "nlp")
    run_worker(prepared, "blank-zh", "pipeline", tmp_path / "nlp")
    _assert_segments(prepared, "blank-zh")


@pytest.fixture(scope="module")
def trained_pipeline(trained_nlp, prepared, tmp_path_factory):
    """trained_nlp on disk, its words of TEXTS written by the pipeline peer (label "trained-pipeline")."""
    path = tmp_path_factory.mktemp("trained") / "nlp"
    trained_nlp.to_disk(path)
    run_worker(prepared, "trained-pipeline", "pipeline", path)
    return path


@pytest.mark.parametrize("name", ["segment", "segment-2proc"])
def test_segment_peers_give_the_pipeline_peers_words(name, trained_pipeline, prepared):
    run_worker(prepared, f"trained-{name}", name, trained_pipeline)
    assert system_lines(prepared, f"trained-{name}") == system_lines(prepared, "trained-pipeline")


@pytest.mark.slow
def test_pkuseg_retrained_on_a_ctb6_slice(shared_data, prepared, tmp_path):
    pytest.importorskip("spacy_pkuseg", reason="module 'spacy_pkuseg' is not installed (pip install spacy-pkuseg)")
    command = [sys.executable, str(REPO_ROOT / "scripts" / "train_pkuseg.py"), "train", "ctb6", str(shared_data),
               str(tmp_path / "model"), "--train-iter", "1", "--max-sentences", "50"]
    subprocess.run(command, check=True, capture_output=True)
    assert json.loads((tmp_path / "model" / "training.json").read_text())["train_sentences"] == 50
    run_worker(prepared, "pkuseg-ctb6-slice", "pkuseg-trained", tmp_path / "model")
    _assert_segments(prepared, "pkuseg-ctb6-slice")


def test_a_peer_on_20_ctb6_lines(shared_data, tmp_path):
    records = benchmark_peers(
        tmp_path, "--assets", shared_data, "--peers", "spacy-zh-char", "--test-sets", "ctb6", "--max-lines", 20
    )
    (record,) = records  # a test set whose files are missing would add a "skipped" record
    sentences = list(read_segmented(get_corpus("ctb6").path(shared_data, "test_gold")))[:20]
    assert record["status"] == "ok" and record["testset"] == "ctb6"
    # One word per character: exactly the gold's one-character words are right.
    characters = sum(len(word) for s in sentences for word in s.words)
    true_words = sum(len(s.words) for s in sentences)
    single = sum(len(word) == 1 for s in sentences for word in s.words)
    precision, recall = single / characters, single / true_words
    assert (record["true_words"], record["test_words"], record["characters"]) == (true_words, characters, characters)
    assert record["precision"] == pytest.approx(precision) and record["recall"] == pytest.approx(recall)
    assert record["f1"] == pytest.approx(2 * precision * recall / (precision + recall))
    assert record["chars_per_second"] == pytest.approx(characters / record["seconds"])
    assert record["altered_lines"] == 0
    lines = (tmp_path / "system" / "spacy-zh-char" / "ctb6.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == " ".join("".join(sentences[0].words))


def test_the_summary_holds_each_peers_figures_from_the_same_run(shared_data, tmp_path):
    """--summary writes what README's tables are rendered from: each peer's scores, speed, load and memory."""
    summary = tmp_path / "benchmark.json"
    records = benchmark_peers(
        tmp_path / "run", "--assets", shared_data, "--peers", "spacy-zh-char", "--test-sets", "ctb6,zx",
        "--max-lines", 10, "--pipeline", "ours=zh_cws_gd_sm", "--summary", summary,
    )
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert set(data["peers"]) == {"spacy-zh-char", "ours"} and set(data["test_sets"]) == {"ctb6", "zx"}
    assert data["peers"]["ours"]["model_version"] == spacy.load("zh_cws_gd_sm").meta["version"]
    for record in records:
        peer = data["peers"][record["peer"]]
        figures = peer["test_sets"][record["testset"]]
        assert figures["f1"] == pytest.approx(record["f1"], abs=1e-6)
        assert figures["oov_recall"] == pytest.approx(record["oov_recall"], abs=1e-6)
        assert figures["chars_per_second"] == round(record["chars_per_second"])
        assert peer["rss_loaded_mb"] == pytest.approx(record["rss_loaded_mb"], abs=0.05)
        assert data["test_sets"][record["testset"]]["characters"] == record["characters"]
    assert data["run"]["threads"] == 1 and "--summary" in data["run"]["command"]


def test_missing_package_gives_a_skip_record(tmp_path):
    # A jieba module first on the workers' path that fails to import, as a missing one does.
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "jieba.py").write_text('raise ImportError("jieba hidden by the test")\n')
    path = os.pathsep.join(filter(None, [str(tmp_path / "hidden"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    (record,) = benchmark_peers(tmp_path / "out", "--peers", "jieba", "--test-sets", "", env=env)
    assert record["status"] == "skipped"
    assert "pip install jieba" in record["reason"]
    assert "SKIPPED jieba" in (tmp_path / "out" / "table.md").read_text(encoding="utf-8")


def test_missing_model_gives_a_skip_record(tmp_path):
    (record,) = benchmark_peers(tmp_path, "--peers", "", "--test-sets", "", "--pipeline", f"ours={tmp_path / 'absent'}")
    assert record["status"] == "skipped" and "not found" in record["reason"]


def test_benchmark_workers_write_results_and_table(shared_data, tmp_path):
    records = benchmark_peers(
        tmp_path, "--assets", shared_data, "--peers", "spacy-zh-char", "--test-sets", "zx", "--max-lines", 20
    )
    ok = [r for r in records if r["status"] == "ok"]
    assert [(r["peer"], r["testset"]) for r in records] == [("spacy-zh-char", "zx")] and len(ok) == 1
    # ZX is word_POS: the gold file and the input must have lost the tags.
    sentences = list(read_segmented(get_corpus("zx").path(shared_data, "test_gold"), "wordpos"))[:20]
    assert ok[0]["true_words"] == sum(len(s.words) for s in sentences)
    assert ok[0]["altered_lines"] == 0 and ok[0]["peak_rss_mb"] > 0
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1
    table = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert "| spacy-zh-char |" in table and "zx (cross-domain)" in table


def test_rounds_keep_one_record_per_peer_and_test_set(shared_data, tmp_path):
    """With --rounds every peer runs that many times in turn; one record per
    peer and test set stays (its fastest round), and the table says so."""
    records = benchmark_peers(
        tmp_path, "--assets", shared_data, "--peers", "spacy-zh-char,jieba", "--test-sets", "zx", "--max-lines", 20,
        "--rounds", 2,
    )
    assert [(r["peer"], r["testset"], r["rounds"]) for r in records] == [("spacy-zh-char", "zx", 2), ("jieba", "zx", 2)]
    assert all(r["status"] == "ok" and r["chars_per_second"] > 0 for r in records)
    assert "in each of 2 rounds" in (tmp_path / "table.md").read_text(encoding="utf-8")
