"""The mwa_enricher component with ner / textcat listeners."""
import pickle

import numpy
import pytest
from spacy.training import Example
from spacy.util import fix_random_seed, load_model_from_path

from spacy_cws.mwa import MWAEnricher
from spacy_cws.mwa.sources import get_segmentations

from .mwa_data import ENCODER, ENRICHER, MIXED_TEXTS, NER_MODEL, NER_SENTENCES, char_pipeline, ner_examples

SOURCES = {
    "tokens": {"@cws_sources": "spacy-cws.doc_tokens.v1"},
    "jieba": {"@cws_sources": "spacy-cws.jieba.v1"},
}


def mwa_ner_pipeline(sources=None, **enricher):
    pytest.importorskip("jieba")
    nlp = char_pipeline()
    nlp.add_pipe("mwa_enricher", config={"model": {**ENRICHER, **enricher}, "sources": sources or SOURCES})
    nlp.add_pipe("ner", config={"model": NER_MODEL})
    return nlp


def ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


@pytest.fixture(scope="module")
def overfitted():
    """mwa_enricher + ner trained on four Resume sentences until the NER loss is tiny."""
    fix_random_seed(0)
    nlp = mwa_ner_pipeline()
    examples = ner_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.0005  # 0.001 converges too, but can spike late on some seeds
    for _ in range(400):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    return nlp, losses


def test_default_config_uses_the_doc_tokens():
    nlp = char_pipeline()
    enricher = nlp.add_pipe("mwa_enricher")
    assert list(enricher.sources) == ["doc_tokens"]


def test_listeners_are_linked():
    nlp = mwa_ner_pipeline()
    assert nlp.get_pipe("mwa_enricher").listening_components == ["ner"]


def test_overfitting_ner_and_serialization(overfitted, tmp_path):
    nlp, losses = overfitted
    assert losses["ner"] < 0.05, losses
    texts = [text for text, _ in NER_SENTENCES]
    predicted = [ents(doc) for doc in nlp.pipe(texts)]
    assert predicted == [sorted(spans) for _, spans in NER_SENTENCES]
    vectors = [doc._.mwa_vectors for doc in nlp.pipe(texts)]

    nlp.to_disk(tmp_path / "pipeline")
    loaded = load_model_from_path(tmp_path / "pipeline")
    assert loaded.get_pipe("mwa_enricher").listening_components == ["ner"]
    assert [ents(doc) for doc in loaded.pipe(texts)] == predicted
    for doc, expected in zip(loaded.pipe(texts), vectors):
        numpy.testing.assert_allclose(doc._.mwa_vectors, expected, atol=1e-5)

    reloaded = mwa_ner_pipeline()
    reloaded.from_bytes(nlp.to_bytes())
    assert [ents(doc) for doc in reloaded.pipe(texts)] == predicted
    unpickled = pickle.loads(pickle.dumps(nlp))
    assert [ents(doc) for doc in unpickled.pipe(texts)] == predicted


def test_saved_sources_must_match_the_config(overfitted, tmp_path):
    nlp, _ = overfitted
    nlp.get_pipe("mwa_enricher").to_disk(tmp_path / "enricher")
    other = char_pipeline().add_pipe(
        "mwa_enricher", config={"model": ENRICHER, "sources": {"thulac": {"@cws_sources": "spacy-cws.doc_tokens.v1"}}}
    )
    with pytest.raises(ValueError, match="saved with the segmentation sources"):
        other.from_disk(tmp_path / "enricher")


def test_empty_and_whitespace_docs(overfitted):
    nlp, _ = overfitted
    for text in ["", " ", "\n\n"]:
        doc = nlp(text)
        assert doc._.mwa_vectors.shape == (len(doc), 32)
        assert doc.ents == ()
    docs = list(nlp.pipe(["", NER_SENTENCES[0][0], ""]))
    assert [len(doc._.mwa_vectors) for doc in docs] == [len(doc) for doc in docs]


def test_update_on_empty_docs_does_nothing(overfitted):
    nlp, _ = overfitted
    losses = nlp.get_pipe("mwa_enricher").update([Example(nlp.make_doc(""), nlp.make_doc(""))])
    assert losses["mwa_enricher"] == 0.0


def test_long_doc_is_split_and_reassembled():
    """A text longer than max_length is windowed: with character tokens, the
    Doc's vectors are exactly those of its two windows computed apart."""
    fix_random_seed(1)
    nlp = char_pipeline()
    nlp.add_pipe(
        "mwa_enricher",
        config={
            "model": {**ENRICHER, "max_length": 16, "encoder": {**ENCODER, "max_length": 16}},
            "sources": {"tokens": {"@cws_sources": "spacy-cws.doc_tokens.v1"}},
        },
    )
    first, second = "历任公司副总经理、总工程师，受聘", "为公司首席资深技术顾问；1984年至1986年，在国营135工厂工作；"
    assert len(first) == 16 and len(second) > 16
    nlp.initialize(lambda: [Example(nlp.make_doc(first), nlp.make_doc(first))])
    whole = nlp(first + second)._.mwa_vectors
    parts = numpy.concatenate([nlp(first)._.mwa_vectors, nlp(second)._.mwa_vectors])
    assert whole.shape == (len(first + second), 32)
    numpy.testing.assert_allclose(whole, parts, atol=1e-5)
    assert numpy.abs(whole[-5:]).sum() > 0  # the tail is not truncated


def test_segmentations_are_computed_once_per_doc(overfitted):
    nlp, _ = overfitted
    enricher = nlp.get_pipe("mwa_enricher")
    calls = []
    original = enricher.sources["jieba"]

    def counting(doc):
        calls.append(doc.text)
        return original(doc)

    enricher.sources["jieba"] = counting
    try:
        doc = nlp.make_doc(MIXED_TEXTS[3] + "（新句子）")
        enricher(doc)
        enricher(doc)
        assert len(calls) == 1
        assert sum(get_segmentations(doc)["jieba"]) == len(doc.text)
    finally:
        enricher.sources["jieba"] = original


def test_a_failing_source_stops_initialize():
    nlp = char_pipeline()

    def broken(doc):
        raise OSError("dictionary not found")

    enricher = nlp.add_pipe("mwa_enricher", config={"model": ENRICHER})
    enricher.sources = {"doc_tokens": broken}
    with pytest.raises(ValueError, match="'doc_tokens' failed.*dictionary not found"):
        nlp.initialize(lambda: ner_examples(nlp))


def test_textcat_and_ner_share_the_enricher():
    """Two listeners: both components train, gradients are summed upstream."""
    fix_random_seed(0)
    nlp = mwa_ner_pipeline()
    nlp.add_pipe(
        "textcat",
        config={
            "model": {
                "@architectures": "spacy.TextCatReduce.v1",
                "exclusive_classes": True,
                "use_reduce_first": False,
                "use_reduce_last": False,
                "use_reduce_max": True,
                "use_reduce_mean": True,
                "tok2vec": {"@architectures": "spacy-cws.MWAListener.v1", "width": 32},
            }
        },
    )
    assert nlp.get_pipe("mwa_enricher").listening_components == ["ner", "textcat"]
    examples = []
    for (text, spans), label in zip(NER_SENTENCES, ["POS", "NEG", "POS", "NEG"]):
        cats = {"POS": float(label == "POS"), "NEG": float(label == "NEG")}
        examples.append(Example.from_dict(nlp.make_doc(text), {"entities": spans, "cats": cats}))
    optimizer = nlp.initialize(lambda: examples)
    enricher = nlp.get_pipe("mwa_enricher")
    before = enricher.model.get_ref("mwa").layers[0].shims[0]._model.lambdas.detach().clone()
    for _ in range(5):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert set(losses) == {"mwa_enricher", "ner", "textcat"} and losses["mwa_enricher"] > 0
    after = enricher.model.get_ref("mwa").layers[0].shims[0]._model.lambdas.detach()
    assert not numpy.allclose(before.numpy(), after.numpy())
    doc = nlp(NER_SENTENCES[0][0])
    assert set(doc.cats) == {"POS", "NEG"}


def test_is_a_trainable_pipe():
    nlp = char_pipeline()
    assert isinstance(nlp.add_pipe("mwa_enricher"), MWAEnricher)
