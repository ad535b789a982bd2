"""The peer segmenters and the benchmark harness, on one sentence and on a
20-line slice of the CTB6 test set (never the full benchmark)."""
import json
import os
import subprocess
import sys

import pytest
import spacy

from spacy_cws.benchmark.peers import PEERS, missing_package
from spacy_cws.benchmark.run import PeerSpec, benchmark, markdown_table, prepare_test_sets, run_peer
from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.formats import read_segmented

from ..conftest import REPO_ROOT

# Full-width digits and letters, Latin, a space and punctuation: the inputs
# on which peers most often drop or change characters.
SENTENCE = "新华社北京二月十二日电，ＡＢＣ公司在2009年推出iPhone 手机，售价５９９９元。"
# pkuseg's pretrained mixed model, as `scripts/train_pkuseg.py fetch-mixed` puts it.
PKUSEG_MIXED = os.environ.get("SPACY_CWS_PKUSEG_MIXED", REPO_ROOT / "assets" / "pkuseg_mixed")


def _load(name, path=None):
    kind = PEERS[name]
    reason = missing_package(kind)
    if reason:
        pytest.skip(reason)
    return kind.load(path) if kind.needs_path else kind.load()


def _assert_segments(segment):
    (words,) = segment([SENTENCE])
    assert len(words) > 1
    # Whitespace tokens (jieba and spaCy keep the space) are dropped by the harness.
    assert "".join("".join(words).split()) == "".join(SENTENCE.split())


@pytest.mark.parametrize("name", ["jieba", "thulac", "spacy-zh-char", "spacy-zh-jieba"])
def test_builtin_peer_words_join_back(name):
    _assert_segments(_load(name))


def test_pkuseg_mixed_words_join_back():
    if not os.path.isdir(PKUSEG_MIXED):
        pytest.skip(f"pkuseg mixed model not found at {PKUSEG_MIXED} (scripts/train_pkuseg.py fetch-mixed)")
    _assert_segments(_load("pkuseg-mixed", PKUSEG_MIXED))


def test_pipeline_peer_loads_a_path(tmp_path):
    spacy.blank("zh").to_disk(tmp_path / "nlp")
    _assert_segments(_load("pipeline", tmp_path / "nlp"))


@pytest.mark.parametrize("name", ["segment", "segment-2proc"])
def test_segment_peers_give_the_pipeline_peers_words(name, trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    texts = [SENTENCE, "", "北京大学生前来应聘", SENTENCE[::-1]] * 5
    assert _load(name, tmp_path / "nlp")(texts) == _load("pipeline", tmp_path / "nlp")(texts)


@pytest.mark.slow
def test_pkuseg_retrained_on_a_ctb6_slice(shared_data, tmp_path):
    if missing_package(PEERS["pkuseg-trained"]):
        pytest.skip(missing_package(PEERS["pkuseg-trained"]))
    command = [sys.executable, str(REPO_ROOT / "scripts" / "train_pkuseg.py"), "train", "ctb6", str(shared_data),
               str(tmp_path / "model"), "--train-iter", "1", "--max-sentences", "50"]
    subprocess.run(command, check=True, capture_output=True)
    assert json.loads((tmp_path / "model" / "training.json").read_text())["train_sentences"] == 50
    _assert_segments(_load("pkuseg-trained", tmp_path / "model"))


def test_run_peer_on_20_ctb6_lines(shared_data, tmp_path):
    test_sets, skipped = prepare_test_sets(["ctb6"], shared_data, tmp_path / "testsets", max_lines=20)
    assert not skipped
    (record,) = run_peer(PeerSpec("char", "spacy-zh-char"), test_sets, tmp_path)
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
    system_lines = (tmp_path / "system" / "char" / "ctb6.txt").read_text(encoding="utf-8").splitlines()
    assert system_lines[0] == " ".join("".join(sentences[0].words))


def test_missing_package_gives_a_skip_record(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "jieba", None)  # makes `import jieba` fail
    (record,) = run_peer(PeerSpec("jieba", "jieba"), [], tmp_path)
    assert record["status"] == "skipped"
    assert "pip install jieba" in record["reason"]
    assert "SKIPPED jieba" in markdown_table([record], [])


def test_missing_model_gives_a_skip_record(tmp_path):
    (record,) = run_peer(PeerSpec("ours", "pipeline", str(tmp_path / "absent")), [], tmp_path)
    assert record["status"] == "skipped" and "not found" in record["reason"]


def test_benchmark_workers_write_results_and_table(shared_data, tmp_path):
    records = benchmark([PeerSpec("char", "spacy-zh-char")], ["zx"], shared_data, tmp_path, max_lines=20)
    ok = [r for r in records if r["status"] == "ok"]
    assert [(r["peer"], r["testset"]) for r in records] == [("char", "zx")] and len(ok) == 1
    # ZX is word_POS: the gold file and the input must have lost the tags.
    sentences = list(read_segmented(get_corpus("zx").path(shared_data, "test_gold"), "wordpos"))[:20]
    assert ok[0]["true_words"] == sum(len(s.words) for s in sentences)
    assert ok[0]["altered_lines"] == 0 and ok[0]["peak_rss_mb"] > 0
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1
    table = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert "| char |" in table and "zx (cross-domain)" in table
