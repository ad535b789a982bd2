"""keep_frequent_bigrams: the first bigrams of the vocabulary (the most
frequent) keep their rows, the others read UNK's row; a text whose bigrams
are all kept gets the same gap probabilities as before; the smaller table
saves and loads; export-onnx --bigram-rows does it before exporting."""
import pickle

import numpy
import pytest
import spacy
import srsly
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.features.symbol_specials import N_SPECIAL_SYMBOLS, UNK
from spacy_cws.nets.wrapped_module import torch_module

from ..segmentation_data import MODEL, SENTENCES, blank_pipeline, make_examples, overfit

TEXTS = [sentence.replace(" ", "") for sentence in SENTENCES]


def bigram_ids(segmenter, text):
    """The left and right bigram ids of each unit of ``text``, as the featurizer gives them."""
    _, _, features = segmenter.featurizer.featurize([text], [0])
    return numpy.concatenate([sequence[:, 1:3] for sequence in features])


@pytest.fixture(scope="module")
def bigram_nlp():
    """A tiny pipeline with a bigram table (every training bigram, most frequent first), trained a little."""
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": {**MODEL, "bigram_width": 8}, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": 1}
    return overfit(nlp, make_examples(nlp), updates=30, max_loss=1.0)


@pytest.fixture()
def segmenter(bigram_nlp):
    return pickle.loads(pickle.dumps(bigram_nlp)).get_pipe("gd_segmenter")


def test_the_kept_bigrams_are_the_first_and_a_text_of_kept_bigrams_is_unchanged(segmenter):
    bigrams = segmenter.featurizer.bigrams
    kept_ids = {text: bigram_ids(segmenter, text) for text in TEXTS}
    # Keep just enough for one text: every bigram it reads, but not all the others read.
    whole = min(TEXTS, key=lambda text: kept_ids[text].max())
    n_kept = int(kept_ids[whole].max()) - N_SPECIAL_SYMBOLS + 1
    dropped_in = [text for text in TEXTS if kept_ids[text].max() >= n_kept + N_SPECIAL_SYMBOLS]
    assert dropped_in and n_kept < len(bigrams)
    _, before = segmenter.segment_with_probs(TEXTS)

    assert segmenter.keep_frequent_bigrams(n_kept) == len(bigrams) - n_kept
    assert segmenter.featurizer.bigrams == bigrams[:n_kept]
    assert torch_module(segmenter.model).bigram_embedding.weight.shape[0] == n_kept + N_SPECIAL_SYMBOLS
    for text in TEXTS:
        expected = numpy.where(kept_ids[text] >= n_kept + N_SPECIAL_SYMBOLS, UNK, kept_ids[text])
        assert (bigram_ids(segmenter, text) == expected).all()
    _, after = segmenter.segment_with_probs(TEXTS)
    numpy.testing.assert_array_equal(after[TEXTS.index(whole)], before[TEXTS.index(whole)])
    assert any(not numpy.array_equal(after[TEXTS.index(text)], before[TEXTS.index(text)]) for text in dropped_in)
    # Asking for as many as are left drops nothing.
    assert segmenter.keep_frequent_bigrams(n_kept) == 0


def test_the_smaller_table_saves_and_loads(bigram_nlp, tmp_path):
    nlp = pickle.loads(pickle.dumps(bigram_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.keep_frequent_bigrams(len(segmenter.featurizer.bigrams) // 2)
    _, probs = segmenter.segment_with_probs(TEXTS)
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline").get_pipe("gd_segmenter")
    assert loaded.featurizer.bigrams == segmenter.featurizer.bigrams
    _, loaded_probs = loaded.segment_with_probs(TEXTS)
    for a, b in zip(loaded_probs, probs):
        numpy.testing.assert_allclose(a, b, atol=1e-6)


def test_keeping_no_bigram_is_refused(segmenter):
    with pytest.raises(ValueError, match="at least 1 bigram"):
        segmenter.keep_frequent_bigrams(0)


def test_export_onnx_keeps_the_bigram_rows_asked_for(bigram_nlp, tmp_path):
    pytest.importorskip("onnx")
    bigram_nlp.to_disk(tmp_path / "source")
    n_bigrams = len(bigram_nlp.get_pipe("gd_segmenter").featurizer.bigrams)
    args = ["export-onnx", tmp_path / "source", tmp_path / "out", "--bigram-rows", 20, "--tables", "float16"]
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    exported = spacy.load(tmp_path / "out").get_pipe("gd_segmenter")
    assert exported.has_graph and len(exported.featurizer.bigrams) == 20
    description = srsly.read_json(tmp_path / "out" / "meta.json")["description"]
    assert f"its 20 most frequent bigrams only ({n_bigrams - 20:,} dropped)" in description
    # The graph and torch read the same 20 rows: the same words.
    on_onnx = [[t.text for t in doc] for doc in spacy.load(tmp_path / "out").pipe(TEXTS)]
    on_torch = spacy.load(tmp_path / "out", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    assert [[t.text for t in doc] for doc in on_torch.pipe(TEXTS)] == on_onnx


def test_a_negative_bigram_rows_is_refused(bigram_nlp, tmp_path):
    bigram_nlp.to_disk(tmp_path / "source")
    args = ["export-onnx", str(tmp_path / "source"), str(tmp_path / "out"), "--bigram-rows", "-1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "--bigram-rows must be 0" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_model_without_bigrams_keeps_what_it_has(trained_nlp):
    segmenter = pickle.loads(pickle.dumps(trained_nlp)).get_pipe("gd_segmenter")
    assert segmenter.featurizer.bigrams == []
    assert segmenter.keep_frequent_bigrams(150_000) == 0
