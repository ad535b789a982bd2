"""The with/without-MWA config pairs differ only in the word information.

The comparison of configs/mwa_*.cfg with configs/char_*.cfg (docs/experiments/mwa.md)
is fair only if the character encoder and every training setting are the same.
"""
from pathlib import Path

import pytest
import spacy
from spacy.util import load_config
from thinc.api import Adam

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
# The [components.mwa_enricher.sources] that scripts/mwa_experiments.py
# --sources characters+characters gives: a name given again is a source of its own.
CHARACTERS_CONTROL = {
    "characters": {"@cws_sources": "spacy-cws.characters.v1"},
    "characters-2": {"@cws_sources": "spacy-cws.characters.v1"},
}


@pytest.mark.parametrize("task", ["ner", "textcat"])
def test_pairs_share_encoder_and_training(task):
    with_mwa = load_config(CONFIGS / f"mwa_{task}.cfg", interpolate=False)
    without = load_config(CONFIGS / f"char_{task}.cfg", interpolate=False)
    assert (
        with_mwa["components"]["mwa_enricher"]["model"]["encoder"]["tok2vec"]
        == without["components"]["tok2vec"]["model"]
    )
    for section in ("training", "corpora", "system", "initialize", "paths"):
        assert with_mwa[section] == without[section], section
    pretraining_with, pretraining_without = dict(with_mwa["pretraining"]), dict(without["pretraining"])
    if pretraining_with or pretraining_without:
        assert (pretraining_with.pop("component"), pretraining_with.pop("layer")) == ("mwa_enricher", "tok2vec")
        assert (pretraining_without.pop("component"), pretraining_without.pop("layer")) == ("tok2vec", "")
        assert pretraining_with == pretraining_without
    downstream = {key: value for key, value in with_mwa["components"][task].items() if key != "model"}
    assert downstream == {key: value for key, value in without["components"][task].items() if key != "model"}
    model_with = dict(with_mwa["components"][task]["model"])
    model_without = dict(without["components"][task]["model"])
    assert model_with.pop("tok2vec")["@architectures"] == "spacy-cws.MWAListener.v1"
    assert model_without.pop("tok2vec")["@architectures"] == "spacy.Tok2VecListener.v1"
    assert model_with == model_without


@pytest.mark.parametrize("name", ["mwa_ner", "char_ner", "mwa_textcat", "char_textcat"])
def test_configs_build(name):
    upstream, task = name.split("_")
    nlp = spacy.util.load_model_from_config(load_config(CONFIGS / f"{name}.cfg"), auto_fill=True)
    encoder = nlp.get_pipe({"mwa": "mwa_enricher", "char": "tok2vec"}[upstream])
    assert nlp.pipe_names == [encoder.name, task]
    assert encoder.listening_components == [task]
    assert nlp.make_doc("他在 2009年买了一部iPhone").text == "他在 2009年买了一部iPhone"


def test_characters_control_matches_the_word_sources():
    """The no-words control (scripts/mwa_experiments.py --sources characters+characters)
    has the parameters of mwa_ner.cfg's two segmenters, and its words are single characters."""
    pytest.importorskip("jieba")
    pytest.importorskip("thulac")
    from .mwa_data import ner_examples

    def initialized(sources):
        overrides = {} if sources is None else {"components.mwa_enricher.sources": sources}
        config = load_config(CONFIGS / "mwa_ner.cfg", overrides=overrides)
        nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
        examples = ner_examples(nlp)
        nlp.initialize(
            lambda: examples, sgd=Adam(0.001)
        )  # create_optimizer() cannot resolve ${training.max_steps} here
        return nlp, examples

    control, examples = initialized(CHARACTERS_CONTROL)
    words, _ = initialized(None)
    assert list(control.config["components"]["mwa_enricher"]["sources"]) == ["characters", "characters-2"]

    def n_parameters(nlp):
        nodes = list(nlp.get_pipe("mwa_enricher").model.walk())
        in_thinc = sum(node.get_param(name).size for node in nodes for name in node.param_names if node.has_param(name))
        in_torch = sum(tensor.numel() for node in nodes for shim in node.shims for tensor in shim._model.parameters())
        return in_thinc + in_torch

    assert n_parameters(control) == n_parameters(words)
    doc = control(examples[0].reference.text)
    assert set(map(tuple, doc._.cws_segmentations.values())) == {(1,) * len(doc.text)}
