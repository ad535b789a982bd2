import pytest

from spacy_cws import __version__
from spacy_cws.cli.derived_meta import MEASURED_FIELDS, derived_meta
from spacy_cws.cli.model_meta import build_meta

METRICS = {
    "official": {"precision": 0.95, "recall": 0.94, "f1": 0.945, "oov_rate": 0.05, "oov_recall": None,
                 "iv_recall": 0.96, "true_words": 100, "test_words": 99},
    "spacy": {"token_acc": 0.98, "token_p": 0.95, "token_r": 0.94, "token_f": 0.945},
    "speed": {"chars_per_second": 12345.6},
}


def test_model_card_states_data_terms_and_scores():
    meta = build_meta("ctb6", METRICS)
    assert "LDC2007T36" in meta["license"] and "research use" in meta["license"]
    assert "F1 0.9450" in meta["description"] and "OOV recall --" in meta["description"]
    assert "12,346 characters per second" in meta["description"]
    assert meta["spacy_cws_test_scores"]["true_words"] == 100
    assert meta["performance"] == METRICS["spacy"]  # spaCy's scores, where its model cards keep them
    assert meta["sources"][0]["license"] == meta["license"].split(": ", 1)[1]
    major, minor = map(int, __version__.split(".")[:2])
    assert meta["requirements"] == [f"spacy-cws>={__version__},<{major}.{minor + 1}.0"]


def test_model_card_states_the_precision_of_its_scores():
    meta = build_meta("ctb6", {**METRICS, "speed": {**METRICS["speed"], "precision": "float32"}})
    assert meta["spacy_cws_test_scores"]["inference_precision"] == "float32"
    assert meta["spacy_cws_test_scores"]["precision"] == 0.95  # the SIGHAN measure, not overwritten
    assert "OOV recall -- (float32 inference);" in meta["description"]
    assert build_meta("ctb6", METRICS)["spacy_cws_test_scores"]["inference_precision"] is None


def test_unknown_corpus():
    with pytest.raises(KeyError, match="Unknown corpus"):
        build_meta("nope", METRICS)


def test_model_card_states_measured_speeds():
    records = [
        {"call": "nlp.pipe", "batch_size": 32, "characters": 1000, "chars_per_second": 9876, "torch_threads": 2},
        {"call": "one document", "batch_size": 1, "characters": 1000000, "chars_per_second": 5432, "torch_threads": 2},
    ]
    meta = build_meta("ctb6", METRICS, records)
    assert "9,876 characters per second for nlp.pipe batch size 32" in meta["description"]
    assert "5,432 characters per second for one 1,000,000-character document" in meta["description"]
    assert [r["chars_per_second"] for r in meta["spacy_cws_speed"]] == [9876, 5432]


def test_model_card_names_the_text_of_pretrained_vectors():
    provenance = {"sources": ["corpus/ctb6/train.spacy", "waimai_10k.csv"], "characters": 1234567}
    meta = build_meta("ctb6", METRICS, ngram_vectors=provenance)
    assert "pretrained (word2vec) on the raw text of corpus/ctb6/train.spacy, waimai_10k.csv" in meta["description"]
    assert "1,234,567 characters" in meta["description"]
    assert meta["sources"][-1]["name"].startswith("raw text of corpus/ctb6/train.spacy")


def test_model_card_names_the_teacher_of_a_distilled_model():
    meta = build_meta("ctb6", METRICS, lexicons=["training"], teacher="zh_cws_gd 0.3.1")
    assert "Distilled from zh_cws_gd 0.3.1" in meta["description"]
    assert "training words and the words zh_cws_gd 0.3.1 gave the raw text" in meta["description"]
    assert any("segmented by zh_cws_gd 0.3.1" in source["name"] for source in meta["sources"])
    assert "Distilled" not in build_meta("ctb6", METRICS)["description"]


def test_a_students_card_carries_the_terms_of_its_teachers_corpora():
    """The teacher's training data reaches the student through its words: each corpus the student did not
    see itself is named with its terms, and only once."""
    meta = build_meta("ctb6", METRICS, teacher="the pipeline t", joint_corpora=["pku_pfr"],
                      teacher_corpora=["ctb6", "sxu", "pku_pfr"])
    assert "Distilled from the pipeline t (itself trained on" in meta["description"]
    assert "its teacher trained on sxu data" in meta["license"]
    assert "teacher trained on pku_pfr" not in meta["license"] and "teacher trained on ctb6" not in meta["license"]
    names = [source["name"] for source in meta["sources"]]
    assert len(names) == len(set(names)) == 4
    with pytest.raises(KeyError):
        build_meta("ctb6", METRICS, teacher="t", teacher_corpora=["nope"])


def test_a_tagging_pipelines_card_says_where_its_tags_come_from():
    meta = build_meta("ctb6", METRICS, tagger_corpus="pku_pfr")
    assert "PKU's tagset in token.tag_" in meta["description"] and "exclude=" in meta["description"]
    # The tags are January's (February has none), and they are for the pku criterion's words.
    tags = meta["description"].split("Part-of-speech tags")[1]
    assert "1-25 January" in tags and "February" not in tags and "criterion (pku" in tags
    assert "tagger trained on pku_pfr data" in meta["license"] and len(meta["sources"]) == 2
    joint = build_meta("ctb6", METRICS, joint_corpora=["pku_pfr"], tagger_corpus="pku_pfr")
    assert "tagger trained on" not in joint["license"] and len(joint["sources"]) == 2
    assert "tagset" not in build_meta("ctb6", METRICS)["description"]
    # A corpus both the teacher and the tagger learned from is credited once.
    both = build_meta("ctb6", METRICS, teacher="t", teacher_corpora=["pku_pfr"], tagger_corpus="pku_pfr")
    assert both["license"].count("pku_pfr data") == 1


def test_model_card_names_every_corpus_of_a_joint_model():
    meta = build_meta("ctb6", METRICS, joint_corpora=["sxu"])
    assert "Trained jointly on" in meta["description"] and "SIGHAN" in meta["description"]
    assert "also trained on sxu data" in meta["license"]
    assert len(meta["sources"]) == 2
    with pytest.raises(KeyError):
        build_meta("ctb6", METRICS, joint_corpora=["nope"])


def test_model_card_says_how_its_onnx_graph_computes():
    meta = build_meta("ctb6", METRICS, onnx_graph={"onnx_tables": "int8", "onnx_matmuls": "int8"})
    assert "ONNX Runtime without torch" in meta["description"] and "int8 products by weights" in meta["description"]
    assert "ONNX Runtime" not in build_meta("ctb6", METRICS)["description"]


def test_a_pipeline_made_from_another_has_its_own_name_and_none_of_its_scores():
    """adapt, then export-onnx of the result: each names its source (the chain kept), neither ships a score."""
    speed = [{"call": "nlp.pipe", "batch_size": 32, "characters": 86763, "chars_per_second": 81315,
              "torch_threads": 2, "peak_rss_mb_after_load": 451.5}]
    source = {"lang": "zh", "name": "cws_gd_sm", "version": "0.6.1", "performance": {"token_f": 0.957},
              **build_meta("ctb6", METRICS, speed, ["training", "jieba"])}
    domain = {"raw_text": ["zx.txt"], "characters": 11217}
    adapted = derived_meta(source, "adapt", "adapted", "adapted to 11,217 characters of raw domain text", domain)
    exported = derived_meta(adapted, "export-onnx", "onnx", "its network as an ONNX graph")
    assert (adapted["name"], exported["name"]) == ("cws_gd_sm_adapted", "cws_gd_sm_adapted_onnx")
    assert derived_meta(adapted, "adapt", "adapted", "adapted again", domain)["name"] == "cws_gd_sm_adapted"
    for meta in (adapted, exported):
        assert not set(MEASURED_FIELDS) & set(meta) and "F1" not in meta["description"]
        assert meta["license"] == source["license"] and meta["sources"] == source["sources"]
        assert meta["spacy_cws_domain"] == domain and meta["version"] == "0.0.0"
    assert adapted["spacy_cws_source"] == {"name": "cws_gd_sm", "version": "0.6.1", "command": "spacy_cws adapt"}
    assert exported["spacy_cws_source"] == {
        "name": "cws_gd_sm_adapted", "version": "0.0.0", "command": "spacy_cws export-onnx",
        "source": adapted["spacy_cws_source"],
    }
    assert exported["description"].startswith("Made by spacy_cws export-onnx from zh_cws_gd_sm_adapted 0.0.0: its")
