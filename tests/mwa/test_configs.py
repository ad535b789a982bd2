"""The with/without-MWA config pairs differ only in the word information.

The comparison of configs/mwa_*.cfg with configs/char_*.cfg (README, issue 5)
is fair only if the character encoder and every training setting are the same.
"""
from pathlib import Path

import pytest
import spacy
from spacy.util import load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("task", ["ner", "textcat"])
def test_pairs_share_encoder_and_training(task):
    with_mwa = load_config(CONFIGS / f"mwa_{task}.cfg", interpolate=False)
    without = load_config(CONFIGS / f"char_{task}.cfg", interpolate=False)
    assert with_mwa["components"]["mwa_enricher"]["model"]["encoder"]["tok2vec"] == without["components"]["tok2vec"]["model"]
    for section in ("training", "corpora", "system", "initialize"):
        assert with_mwa[section] == without[section], section
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
