"""The shipped pipelines (zh_cws_gd, the default, and zh_cws_gd_sm, its small
distilled student): installed by README's command, loaded by name."""
import pytest

from spacy_cws.corpora.evaluation_files import TEST_GOLD, TEST_INPUT, list_text_lines
from spacy_cws.nets.precisions import PRECISION_NAMES
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.scoring.sighan import score_files

from ..conftest import shipped_pipeline

SHIPPED = ["zh_cws_gd", "zh_cws_gd_sm"]


@pytest.fixture(params=SHIPPED)
def shipped(request):
    return request.getfixturevalue(f"{request.param}_nlp")


def test_loads_by_name_and_segments(shipped):
    assert [t.text for t in shipped("今天天气很好")] == ["今天", "天气", "很", "好"]
    text = "  上海浦东开发与法制建设同步\n\nＩＢＭ公司2024年营收３．５％增长 "
    assert shipped(text).text == text


def test_model_card_states_data_terms_and_measures(shipped):
    meta = shipped.meta
    assert "LDC2007T36" in meta["license"] and "research use" in meta["license"]
    assert meta["spacy_cws_test_scores"]["corpus"] == "ctb6"
    assert {r["batch_size"] for r in meta["spacy_cws_speed"]} >= {1, 32, 256}


def test_model_card_scores_are_reproduced_on_ctb6_test(shipped, prepared_ctb6, tmp_path):
    """The meta's official CTB6 test scores are what the installed weights give,
    in the precision the card names (an "auto" pipeline runs bfloat16 on CPUs
    with it; a card measured on an int8-static graph is what loading runs)."""
    stated = shipped.meta["spacy_cws_test_scores"]
    if stated.get("inference_precision") in PRECISION_NAMES:
        shipped = shipped_pipeline(f"{shipped.meta['lang']}_{shipped.meta['name']}", stated["inference_precision"])
    lines = list_text_lines(prepared_ctb6 / TEST_INPUT)
    system = tmp_path / "system.seg"
    system.write_bytes("".join(system_line(doc) + "\n" for doc in shipped.pipe(lines)).encode("utf-8"))
    measured = score_files(prepared_ctb6 / TEST_GOLD, system, prepared_ctb6 / "train_words.txt").to_dict()
    for key in ("precision", "recall", "f1", "oov_recall", "true_words", "test_words"):
        assert measured[key] == pytest.approx(stated[key], abs=5e-4), key
