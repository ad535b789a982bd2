"""A new criterion for a shipped segmenter (segmenter/new_criterion.py): a single-criterion
model gets two, the new one with gap heads of its own; both segment as the model did until
trained, and the saved pipeline loads with them."""
import pickle

import numpy
import pytest
import spacy

from spacy_cws.segmenter.new_criterion import add_new_criterion

pytest.importorskip("torch")
TEXTS = ["张小凡看着前方那个中年文士，脑海中一片混乱。", "新华社北京１２月３日电，国务院总理会见了来访的客人。", "好"]


def torch_pipeline(name):
    """The shipped pipeline predicting on torch in float32 (before and after: the same backend)."""
    return spacy.load(
        name, config={"components": {"gd_segmenter": {"inference_backend": "torch", "precision": "float32"}}}
    )


def test_a_single_criterion_model_gets_the_source_and_the_new_criterion(trained_nlp, tmp_path):
    nlp = pickle.loads(pickle.dumps(trained_nlp))  # the shipped pipelines have two criteria
    segmenter = nlp.get_pipe("gd_segmenter")
    words, probs = segmenter.segment_with_probs(TEXTS)
    model_config = nlp.get_pipe_config("gd_segmenter")["model"]
    assert add_new_criterion(segmenter, "forum", "ctb6", model_config) == "ctb6"
    assert segmenter.criteria == ["ctb6", "forum"] and model_config["criterion_heads"] == [1]
    # Zero embeddings: each criterion computes exactly what the source did.
    for criterion in ("ctb6", "forum"):
        new_words, new_probs = segmenter.segment_with_probs(TEXTS, [criterion] * len(TEXTS))
        assert all(numpy.array_equal(a, b) for a, b in zip(words, new_words))
        assert all(numpy.array_equal(a, b) for a, b in zip(probs, new_probs))
    nlp.get_pipe_config("gd_segmenter")["criterion"] = segmenter.cfg["criterion"] = "forum"
    nlp.to_disk(tmp_path / "saved")
    loaded = spacy.load(tmp_path / "saved").get_pipe("gd_segmenter")
    assert loaded.criteria == ["ctb6", "forum"] and loaded.cfg["criterion"] == "forum"
    assert loaded.segment_texts(TEXTS)[0].tolist() == words[0].tolist()
    with pytest.raises(ValueError, match="Unknown criterion 'pku'"):
        loaded.segment_texts(TEXTS, ["pku"] * len(TEXTS))


def test_a_multi_criteria_model_gets_one_more():
    nlp = torch_pipeline("zh_cws_gd")
    segmenter = nlp.get_pipe("gd_segmenter")
    words = segmenter.segment_texts(TEXTS, ["pku"] * len(TEXTS))
    model_config = nlp.get_pipe_config("gd_segmenter")["model"]
    assert add_new_criterion(segmenter, "forum", "unused", model_config) == "ctb6"
    assert segmenter.criteria == ["ctb6", "pku", "forum"] and model_config["criterion_heads"] == [2]
    new_words = segmenter.segment_texts(TEXTS, ["pku"] * len(TEXTS))
    assert all(numpy.array_equal(a, b) for a, b in zip(words, new_words))
    with pytest.raises(ValueError, match="has the criterion 'forum' already"):
        add_new_criterion(segmenter, "forum", "unused", model_config)


def test_the_new_criterion_needs_its_own_name(trained_nlp):
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    with pytest.raises(ValueError, match=r"has the criterion 'source' already \(its criteria: source\)"):
        add_new_criterion(segmenter, "source", "source", nlp.get_pipe_config("gd_segmenter")["model"])
    assert segmenter.criteria == []
