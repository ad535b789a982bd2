"""spacy-cws.TokenVectorsToCharacters.v1: a token encoder (here spaCy's
HashEmbedCNN, as in configs/mwa_ner.cfg) as the MWA enricher's character encoder."""
import numpy
import pytest
from spacy.tokens import Doc
from spacy.util import fix_random_seed, load_model_from_path
from thinc.api import NumpyOps

from spacy_cws.mwa.token_vectors_to_characters import spread_to_characters

from .mwa_data import ENRICHER, MIXED_TEXTS, NER_SENTENCES, char_pipeline, ner_examples
from .test_component import ents, mwa_ner_pipeline

HASH_EMBED_CNN = {
    "@architectures": "spacy.HashEmbedCNN.v2",
    "width": ENRICHER["width"],
    "depth": 2,
    "embed_size": 500,
    "window_size": 1,
    "maxout_pieces": 3,
    "subword_features": False,
    "pretrained_vectors": None,
}
ENCODER = {
    "@architectures": "spacy-cws.TokenVectorsToCharacters.v1",
    "width": ENRICHER["width"],
    "tok2vec": HASH_EMBED_CNN,
}


def test_hash_embed_cnn_under_mwa_trains_saves_and_reloads(tmp_path):
    fix_random_seed(0)
    nlp = mwa_ner_pipeline(encoder=ENCODER)
    examples = ner_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(300):
        nlp.update(examples, sgd=optimizer)
    texts = [text for text, _ in NER_SENTENCES] + MIXED_TEXTS
    docs = list(nlp.pipe(texts))
    assert [ents(doc) for doc in docs[: len(NER_SENTENCES)]] == [sorted(s) for _, s in NER_SENTENCES]
    assert [doc.text for doc in docs] == texts
    nlp.to_disk(tmp_path / "pipeline")
    loaded = load_model_from_path(tmp_path / "pipeline")
    for doc, again in zip(docs, loaded.pipe(texts)):
        assert ents(again) == ents(doc)
        numpy.testing.assert_allclose(again._.mwa_vectors, doc._.mwa_vectors, atol=1e-6)


def test_spreading_matches_a_character_loop():
    """Character and word tokens, whitespace inside and outside tokens, an empty Doc."""
    nlp = char_pipeline()
    docs = [
        nlp.make_doc("他在 2009年  买"),
        Doc(nlp.vocab, words=["北京", "  ", "西山", "公园"], spaces=[True, False, True, True]),
        nlp.make_doc(""),
    ]
    rng = numpy.random.default_rng(0)
    tokens = [rng.normal(size=(len(doc), 4)).astype("f") for doc in docs]
    d_chars = [rng.normal(size=(len(doc.text), 4)).astype("f") for doc in docs]
    chars, backprop = spread_to_characters(NumpyOps(), docs, tokens, 4)
    d_tokens = backprop(d_chars)
    for doc, T, C, dC, dT in zip(docs, tokens, chars, d_chars, d_tokens):
        expected_C = numpy.zeros((len(doc.text), 4), dtype="f")
        expected_dT = numpy.zeros((len(doc), 4), dtype="f")
        for token in doc:
            for position in range(token.idx, token.idx + len(token.text)):
                expected_C[position] = T[token.i]
                expected_dT[token.i] += dC[position]
        numpy.testing.assert_array_equal(C, expected_C)
        numpy.testing.assert_allclose(dT, expected_dT, rtol=1e-6)
    with pytest.raises(ValueError, match="width 4.*3 wide"):
        spread_to_characters(NumpyOps(), docs[:1], [tokens[0][:, :3]], 4)
