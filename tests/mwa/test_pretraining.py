"""``spacy pretrain`` of the character encoder, loaded by both configs of the MWA pair.

configs/char_ner.cfg pretrains its tok2vec; configs/mwa_ner.cfg names the
same HashEmbedCNN inside mwa_enricher (ref "tok2vec"). The weights of one
pretraining run must load into both, so that the with/without comparison
starts from the same character encoder.
"""
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import srsly
from spacy.tokens import DocBin
from spacy.training.initialize import init_nlp
from spacy.training.pretrain import pretrain
from spacy.util import load_config

from .mwa_data import MIXED_TEXTS, NER_SENTENCES, char_pipeline, ner_examples

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
CHARACTERS_SOURCE = {"characters": {"@cws_sources": "spacy-cws.characters.v1"}}


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """Weights of char_ner.cfg's tok2vec after one pretraining epoch on the raw
text that scripts/pretraining_text.py writes (empty texts left out, the others
exact), and a tiny NER corpus."""
    folder = tmp_path_factory.mktemp("pretrain")
    nlp = char_pipeline()
    corpus, mixed = folder / "ner.spacy", folder / "mixed.spacy"
    DocBin(docs=[example.reference for example in ner_examples(nlp)]).to_disk(corpus)
    DocBin(docs=[nlp.make_doc(text) for text in MIXED_TEXTS + [""]]).to_disk(mixed)
    raw_text = folder / "raw.jsonl"
    script = CONFIGS.parent / "scripts" / "pretraining_text.py"
    subprocess.run([sys.executable, str(script), raw_text, mixed, corpus], check=True, capture_output=True)
    assert [line["text"] for line in srsly.read_jsonl(raw_text)] == MIXED_TEXTS + [text for text, _ in NER_SENTENCES]
    config = load_config(CONFIGS / "char_ner.cfg", overrides={"paths.raw_text": str(raw_text)}, interpolate=True)
    (folder / "out").mkdir()
    pretrain(config, folder / "out", silent=True)
    return folder / "out" / "model-last.bin", corpus


def character_encoder(name, corpus, weights):
    overrides = {"paths.train": str(corpus), "paths.dev": str(corpus), "paths.init_tok2vec": weights and str(weights)}
    if name == "mwa_ner":
        overrides["components.mwa_enricher.sources"] = CHARACTERS_SOURCE
    nlp = init_nlp(load_config(CONFIGS / f"{name}.cfg", overrides=overrides))
    if name == "mwa_ner":
        return nlp, nlp.get_pipe("mwa_enricher").model.get_ref("tok2vec")
    return nlp, nlp.get_pipe("tok2vec").model


def test_one_pretraining_run_initialises_both_configs(pretrained):
    weights, corpus = pretrained
    char_nlp, char_tok2vec = character_encoder("char_ner", corpus, weights)
    mwa_nlp, mwa_tok2vec = character_encoder("mwa_ner", corpus, weights)
    _, fresh_tok2vec = character_encoder("char_ner", corpus, None)
    docs = [char_nlp.make_doc(text) for text in MIXED_TEXTS]
    assert [d.text for d in docs] == MIXED_TEXTS
    loaded = char_tok2vec.predict(docs)
    numpy.testing.assert_array_equal(numpy.concatenate(loaded), numpy.concatenate(mwa_tok2vec.predict(docs)))
    assert not numpy.allclose(numpy.concatenate(loaded), numpy.concatenate(fresh_tok2vec.predict(docs)))
    enriched = mwa_nlp(MIXED_TEXTS[0])
    assert enriched._.mwa_vectors.shape[0] == len(enriched)
