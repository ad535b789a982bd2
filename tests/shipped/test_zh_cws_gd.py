"""The shipped default pipeline: installed by README's command, loaded by name."""
import importlib.util
from pathlib import Path

import pytest
import spacy

from spacy_cws.benchmark.run import prepare_test_sets
from spacy_cws.corpora.test_files import list_text_lines
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.scoring.sighan import score_files

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("zh_cws_gd") is None,
    reason="zh_cws_gd is not installed: pip install ./models/zh_cws_gd-0.1.0.tar.gz (README's install command does)",
)


@pytest.fixture(scope="module")
def zh_cws_gd():
    return spacy.load("zh_cws_gd")


def test_loads_by_name_and_segments(zh_cws_gd):
    assert [t.text for t in zh_cws_gd("今天天气很好")] == ["今天", "天气", "很", "好"]
    text = "  上海浦东开发与法制建设同步\n\nＩＢＭ公司2024年营收３．５％增长 "
    assert zh_cws_gd(text).text == text


def test_model_card_states_data_terms_and_measures(zh_cws_gd):
    meta = zh_cws_gd.meta
    assert "LDC2007T36" in meta["license"] and "research use" in meta["license"]
    assert meta["spacy_cws_test_scores"]["corpus"] == "ctb6"
    assert {r["batch_size"] for r in meta["spacy_cws_speed"]} >= {1, 32, 256}


def test_model_card_scores_are_reproduced_on_ctb6_test(zh_cws_gd, shared_data, tmp_path):
    """The meta's official CTB6 test scores are what the installed weights give."""
    (test_set,), _ = prepare_test_sets(["ctb6"], shared_data, tmp_path)
    lines = list_text_lines(Path(test_set.input))
    system = tmp_path / "system.seg"
    system.write_bytes("".join(system_line(doc) + "\n" for doc in zh_cws_gd.pipe(lines)).encode("utf-8"))
    measured = score_files(Path(test_set.gold), system, Path(test_set.train_words)).to_dict()
    stated = zh_cws_gd.meta["spacy_cws_test_scores"]
    for key in ("precision", "recall", "f1", "oov_recall", "true_words", "test_words"):
        assert measured[key] == pytest.approx(stated[key], abs=5e-4), key
