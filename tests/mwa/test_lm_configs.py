"""The configs over a local character LM (docs/experiments/mwa.md, "Over a pretrained character LM"):
configs/lm_ner.cfg and configs/lm_textcat.cfg (the LM alone) against configs/mwa_ner_bert.cfg and
configs/mwa_textcat_bert.cfg (the LM under the MWA enricher). Each pair differs only in the enricher, and
each config trains over an LM of 128 positions, such as `pretrain-charlm` writes, without losing the
characters at the end of a window: a tiny randomly initialised BERT stands in for it."""
from pathlib import Path

import numpy
import pytest
from spacy.training import Example
from spacy.util import fix_random_seed, load_config, load_model_from_config
from thinc.api import Adam

from .mwa_data import NER_SENTENCES, ner_examples

transformers = pytest.importorskip("transformers")
pytest.importorskip("spacy_transformers")

CONFIGS = Path(__file__).parents[2] / "configs"
WIDTH = 32
# mwa_ner_bert.cfg is sized for BERT-base; these overrides size it for the character LM (width 256), as
# docs/guides/character-lm.md gives them. The test's LM is narrower still: WIDTH_OVERRIDES.
CHARLM_NER_OVERRIDES = {
    "components.mwa_enricher.model.encoder.width": 256, "components.mwa_enricher.model.n_heads": 4,
    "components.transformer.model.get_spans.window": 126,
}
WIDTH_OVERRIDES = {"components.mwa_enricher.model.encoder.width": WIDTH, "components.mwa_enricher.model.n_heads": 2}
REVIEWS = [("这间酒店环境和服务态度亦算不错，早餐也丰富，下次还会再来。" * 6, "POSITIVE"),
           ("房间空间太小，隔音很差，前台态度冷淡，不会再住了。" * 6, "NEGATIVE")]


@pytest.mark.parametrize("task", ["ner", "textcat"])
def test_lm_pairs_differ_only_in_the_enricher(task):
    with_mwa = load_config(CONFIGS / f"mwa_{task}_bert.cfg", interpolate=False,
                           overrides=CHARLM_NER_OVERRIDES if task == "ner" else {})
    alone = load_config(CONFIGS / f"lm_{task}.cfg", interpolate=False)
    assert with_mwa["nlp"]["pipeline"] == ["transformer", "mwa_enricher", task]
    assert alone["nlp"]["pipeline"] == ["transformer", task]
    assert with_mwa["components"]["transformer"] == alone["components"]["transformer"]
    assert with_mwa["components"]["transformer"]["model"]["get_spans"]["window"] == 126
    assert with_mwa["components"]["mwa_enricher"]["model"]["encoder"]["upstream"] == "transformer"
    for section in ("training", "corpora", "system", "initialize", "paths", "nlp"):
        if section == "nlp":
            assert {k: v for k, v in with_mwa[section].items() if k != "pipeline"} == \
                   {k: v for k, v in alone[section].items() if k != "pipeline"}
        else:
            assert with_mwa[section] == alone[section], section
    model_with, model_alone = dict(with_mwa["components"][task]["model"]), dict(alone["components"][task]["model"])
    assert model_with.pop("tok2vec")["@architectures"] == "spacy-cws.MWAListener.v1"
    assert model_alone.pop("tok2vec")["@architectures"] == "spacy-transformers.TransformerListener.v1"
    assert model_with == model_alone


@pytest.fixture(scope="module")
def charlm_dir(tmp_path_factory):
    """A 1-layer BERT of width 32 with 128 positions, as pretrain-charlm's LM has, and its character tokenizer."""
    path = tmp_path_factory.mktemp("tiny_charlm")
    texts = [text for text, _ in NER_SENTENCES] + [text for text, _ in REVIEWS]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted({c for text in texts for c in text})
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf8")
    transformers.BertTokenizerFast(vocab_file=str(path / "vocab.txt"), model_max_length=128).save_pretrained(path)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=WIDTH, num_hidden_layers=1,
                                     num_attention_heads=2, intermediate_size=64, max_position_embeddings=128)
    fix_random_seed(0)
    transformers.BertModel(config).save_pretrained(path)
    return path


def trained(name, charlm_dir, examples_of, steps=3):
    overrides = {"paths.bert": str(charlm_dir), **(WIDTH_OVERRIDES if name.startswith("mwa") else {})}
    if name == "mwa_ner_bert":
        overrides["components.transformer.model.get_spans.window"] = 126
    nlp = load_model_from_config(load_config(CONFIGS / f"{name}.cfg", overrides=overrides), auto_fill=True)
    examples = examples_of(nlp)
    optimizer = nlp.initialize(lambda: examples, sgd=Adam(0.001))  # the schedule needs spacy train's config
    for _ in range(steps):
        nlp.update(examples, sgd=optimizer)
    return nlp


def review_examples(nlp):
    return [Example.from_dict(nlp.make_doc(text), {"cats": {"POSITIVE": float(label == "POSITIVE"),
                                                          "NEGATIVE": float(label == "NEGATIVE")}})
            for text, label in REVIEWS]


@pytest.mark.parametrize("name", ["lm_ner", "mwa_ner_bert", "lm_textcat", "mwa_textcat_bert"])
def test_lm_configs_train_over_a_128_position_lm_and_read_every_character(name, charlm_dir):
    if name.startswith("mwa"):
        pytest.importorskip("jieba")
        pytest.importorskip("thulac")
    fix_random_seed(0)
    nlp = trained(name, charlm_dir, ner_examples if "ner" in name else review_examples)
    # 320 characters: with windows of 128 at a stride of 96 the last would be whole, 130 wordpieces with
    # [CLS] and [SEP], and spacy-transformers would drop its last two characters.
    text = (REVIEWS[0][0] + REVIEWS[1][0])[:320]
    doc = nlp(text)
    assert doc.text == text and len(doc) == len(text)
    # No window was cut short: every character has its wordpiece in the transformer's output.
    wordpieces = doc._.trf_data.wordpieces
    assert all(length <= 128 for length in wordpieces.lengths)
    aligned = doc._.trf_data.align
    assert (aligned.lengths > 0).all()
    if "textcat" in name:
        assert set(doc.cats) == {"POSITIVE", "NEGATIVE"} and abs(sum(doc.cats.values()) - 1) < 1e-5
    if name.startswith("mwa"):
        assert doc._.mwa_vectors.shape == (len(text), WIDTH) and numpy.isfinite(doc._.mwa_vectors).all()
