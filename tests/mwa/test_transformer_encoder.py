"""spacy-cws.TransformerCharEncoder.v1: a ``transformer`` component as the MWA
enricher's character encoder, with a tiny randomly initialised BERT saved to a
temporary folder (nothing is downloaded)."""
import re
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.util import fix_random_seed, load_config, load_model_from_config

from .mwa_data import MIXED_TEXTS, NER_SENTENCES, ner_examples
from .test_component import ents, mwa_ner_pipeline

transformers = pytest.importorskip("transformers")
pytest.importorskip("spacy_transformers")

CONFIG = Path(__file__).parents[2] / "configs" / "mwa_ner_bert.cfg"
WIDTH = 32  # the tiny BERT's hidden size and the test enricher's width (mwa_data.ENRICHER)
LONG_TEXT = ("".join(text for text, _ in NER_SENTENCES) * 4)[:300]


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    """A 1-layer BERT of width 32 and its tokenizer, whose vocabulary is the test sentences' characters."""
    path = tmp_path_factory.mktemp("tiny_bert")
    characters = sorted({c for text in [t for t, _ in NER_SENTENCES] + MIXED_TEXTS for c in text.lower()} - set(" \n"))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + characters
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf8")
    transformers.BertTokenizerFast(vocab_file=str(path / "vocab.txt"), model_max_length=512).save_pretrained(path)
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=WIDTH,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    fix_random_seed(0)
    transformers.BertModel(config).save_pretrained(path)
    return path


def bert_pipeline(bert_dir):
    """transformer (spacy-transformers' own TransformerModel.v3) + mwa_enricher over it + ner."""
    nlp = mwa_ner_pipeline(encoder={"@architectures": "spacy-cws.TransformerCharEncoder.v1", "width": WIDTH})
    model = {
        "@architectures": "spacy-transformers.TransformerModel.v3",
        "name": str(bert_dir),
        "tokenizer_config": {"use_fast": True},
        "get_spans": {"@span_getters": "spacy-transformers.strided_spans.v1", "window": 128, "stride": 96},
    }
    nlp.add_pipe("transformer", first=True, config={"model": model})
    return nlp


def bert_gradient(nlp):
    """The gradient of BERT's embedding table from the last update (its optimizer step zeroes it)."""
    return nlp.get_pipe("transformer").model.transformer.embeddings.word_embeddings.weight.grad.numpy()


def character_vectors(nlp, doc):
    return nlp.get_pipe("mwa_enricher").model.get_ref("encoder").predict([doc])[0]


@pytest.fixture(scope="module")
def overfitted(bert_dir):
    """Trained on the four Resume sentences until the ner predicts their entities."""
    fix_random_seed(0)
    nlp = bert_pipeline(bert_dir)
    examples = ner_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    assert nlp.get_pipe("transformer").listening_components == ["mwa_enricher"]
    texts = [text for text, _ in NER_SENTENCES]
    gold = [sorted(spans) for _, spans in NER_SENTENCES]
    for step in range(1, 401):
        nlp.update(examples, sgd=optimizer)
        if step % 25 == 0 and [ents(doc) for doc in nlp.pipe(texts)] == gold:
            break
    return nlp


def test_overfitting_and_serialization(overfitted, tmp_path):
    nlp = overfitted
    texts = [text for text, _ in NER_SENTENCES]
    assert [ents(doc) for doc in nlp.pipe(texts)] == [sorted(spans) for _, spans in NER_SENTENCES]
    # The ner's gradients reach BERT through the enricher (the transformer's only listener).
    assert numpy.abs(bert_gradient(nlp)).sum() > 0
    docs = list(nlp.pipe(texts))

    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("transformer").listening_components == ["mwa_enricher"]
    for doc, expected in zip(loaded.pipe(texts), docs):
        assert ents(doc) == ents(expected)
        numpy.testing.assert_allclose(doc._.mwa_vectors, expected._.mwa_vectors, atol=1e-5)


def test_doc_longer_than_the_transformer_window(overfitted):
    nlp = overfitted
    doc = nlp(LONG_TEXT)
    assert doc.text == LONG_TEXT and len(doc) == 300
    assert doc._.mwa_vectors.shape == (300, WIDTH)
    chars = character_vectors(nlp, doc)
    # Strided windows of 128 tokens: every character past the first window has its BERT vector.
    assert chars.shape == (300, WIDTH) and numpy.abs(chars).sum(axis=1).min() > 0


def test_whitespace_runs_keep_the_text(overfitted):
    nlp = overfitted
    for text, doc in zip(MIXED_TEXTS, nlp.pipe(MIXED_TEXTS)):
        assert doc.text == text
        assert doc._.mwa_vectors.shape == (len(doc), WIDTH) and numpy.isfinite(doc._.mwa_vectors).all()
        chars = character_vectors(nlp, doc)
        assert chars.shape == (len(text), WIDTH) and numpy.isfinite(chars).all()
        # Whitespace is in no wordpiece: zeros, in a token or not; every other character has a vector.
        empty = numpy.abs(chars).sum(axis=1) == 0
        assert empty.tolist() == [c.isspace() for c in text]


def config_pipeline(bert):
    overrides = {"paths.bert": bert, "components.mwa_enricher.model.encoder.width": WIDTH}
    return load_model_from_config(load_config(CONFIG, overrides=overrides), auto_fill=True)


def test_config_needs_a_local_model_folder(bert_dir, tmp_path):
    pytest.importorskip("jieba")
    pytest.importorskip("thulac")
    nlp = config_pipeline(str(bert_dir))
    examples = ner_examples(nlp)[:2]
    nlp.initialize(lambda: examples)
    assert nlp.get_pipe("transformer").listening_components == ["mwa_enricher"]
    assert nlp(NER_SENTENCES[0][0])._.mwa_vectors.shape == (len(NER_SENTENCES[0][0]), WIDTH)

    missing = tmp_path / "bert-base-chinese"
    for bert, message in [(str(missing), re.escape(str(missing))), (None, "paths.bert")]:
        with pytest.raises(ValueError, match=message):
            config_pipeline(bert).initialize(lambda: examples)
