"""Pretrained unigram and bigram vectors: tokens, word2vec, saving, and the
segmenter's embedding tables starting from them."""
import numpy
import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.features.character_view import Normaliser
from spacy_cws.nets.wrapped_module import torch_module
from spacy_cws.ngram_vectors import NgramVectors, ngram_sequences, pretrain_ngram_vectors, split_bigram_key

from ..segmentation_data import MODEL, TEXTS, blank_pipeline, make_examples

gensim = pytest.importorskip("gensim", reason="pretrained n-gram vectors need gensim (the 'vectors' extra)")

BIGRAM_MODEL = {**MODEL, "@architectures": "spacy-cws.GDTransformer.v2", "bigram_width": 16}


@pytest.fixture(scope="module")
def ctb6_texts(shared_data):
    """The raw text of the first 3,000 CTB6 training sentences."""
    with (shared_data / "ctb6" / "train.seg").open(encoding="utf-8") as lines:
        return ["".join(line.split()) for _, line in zip(range(3000), lines) if line.strip()]


@pytest.fixture(scope="module")
def vectors(ctb6_texts):
    return pretrain_ngram_vectors(ctb6_texts, Normaliser(), unigram_width=32, bigram_width=16, epochs=2)


def test_ngram_sequences_are_the_models_symbols_and_gaps():
    (unigrams, bigrams), = ngram_sequences([Normaliser()("在 2009年买了ｉＰｈｏｎｅ").symbols, ""])
    assert unigrams == ["在", "0", "年", "买", "了", "X"]
    assert len(bigrams) == len(unigrams) + 1
    assert [split_bigram_key(key) for key in (bigrams[0], bigrams[2], bigrams[-1])] == [
        ("<s>", "在"), ("0", "年"), ("X", "</s>")
    ]
    with pytest.raises(ValueError, match="not a bigram key"):
        split_bigram_key("三个字")


def test_vectors_place_similar_characters_together_and_round_trip(vectors, tmp_path):
    # Digits collapse to "0"; the Chinese numerals share their contexts.
    assert {"0", "中", "国", "<s>中"} <= set(vectors.unigrams.index_to_key) | set(vectors.bigrams.index_to_key)
    numerals = vectors.unigrams.similarity("三", "五")
    assert numerals > vectors.unigrams.similarity("三", "的")
    vectors.to_disk(tmp_path / "vectors")
    loaded = NgramVectors.from_disk(tmp_path / "vectors")
    assert loaded.unigrams.index_to_key == vectors.unigrams.index_to_key
    numpy.testing.assert_allclose(loaded.bigrams.vectors, vectors.bigrams.vectors)
    assert loaded.normalisation == {"fold_width": True, "collapse_runs": True, "opencc": None}
    assert loaded.meta["word2vec"]["epochs"] == 2


def segmenter_with_vectors(path, model=BIGRAM_MODEL, **settings):
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, **settings})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"ngram_vectors": str(path), "bigram_min_count": 1}
    return nlp


def test_segmenter_starts_from_the_vectors_and_knows_pretrained_only_characters(vectors, tmp_path):
    vectors.to_disk(tmp_path / "vectors")
    nlp = segmenter_with_vectors(tmp_path / "vectors")
    nlp.initialize(lambda: make_examples(nlp))
    seg = nlp.get_pipe("gd_segmenter")
    training_characters = set("".join(TEXTS))
    pretrained_only = next(
        key for key in vectors.unigrams.index_to_key if len(key) == 1 and key not in training_characters
    )
    assert pretrained_only in seg.symbols
    module = torch_module(seg.model)
    for character in ("国", pretrained_only):
        row = module.embedding.weight[seg.featurizer.symbol_ids.unigram_ids(character)[0]].detach().numpy()
        assert vectors.unigrams.cosine_similarities(row, [vectors.unigrams[character]])[0] == pytest.approx(1, abs=1e-5)
    key = vectors.bigrams.index_to_key[0]
    bigram_row = (
        module.bigram_embedding.weight[seg.featurizer.symbol_ids.bigram_ids([split_bigram_key(key)])[0]]
        .detach()
        .numpy()
    )
    assert vectors.bigrams.cosine_similarities(bigram_row, [vectors.bigrams[key]])[0] == pytest.approx(1, abs=1e-5)
    assert seg.cfg["ngram_vectors"]["rows"]["unigrams"] == len(
        [k for k in vectors.unigrams.index_to_key if len(k) == 1]
    )
    # The text a pretrained-only character is in segments, and nothing is lost.
    text = f"他说{pretrained_only}很好"
    assert nlp(text).text == text


def test_segmenter_refuses_vectors_of_another_normalisation_or_width(vectors, tmp_path):
    vectors.to_disk(tmp_path / "vectors")
    nlp = segmenter_with_vectors(tmp_path / "vectors", fold_width=False)
    with pytest.raises(ValueError, match="normalises with"):
        nlp.initialize(lambda: make_examples(nlp))
    nlp = segmenter_with_vectors(tmp_path / "vectors", model={**BIGRAM_MODEL, "bigram_width": 8})
    with pytest.raises(ValueError, match="width 16 for an embedding table of width 8"):
        nlp.initialize(lambda: make_examples(nlp))
    nlp = segmenter_with_vectors(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="ngram-vectors"):
        nlp.initialize(lambda: make_examples(nlp))


def test_cli_writes_vectors_from_training_files_and_names_bad_input(shared_data, tmp_path):
    sentiment = shared_data / "textcat" / "waimai_10k" / "waimai_10k.csv"
    runner = CliRunner()
    result = runner.invoke(app, ["ngram-vectors", str(tmp_path / "out"), str(sentiment), "--unigram-width", "8",
                                 "--bigram-width", "8", "--epochs", "1"])
    assert result.exit_code == 0, result.output
    written = NgramVectors.from_disk(tmp_path / "out")
    assert written.meta["texts"] == 11987 and written.unigrams.vector_size == 8
    result = runner.invoke(app, ["ngram-vectors", str(tmp_path / "bad"), str(shared_data / "ctb6" / "train.seg")])
    assert result.exit_code == 1 and "expected a DocBin (.spacy) or a review CSV" in result.stderr
