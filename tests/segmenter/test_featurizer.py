"""The featurizer: its data saved under its own key, and features equal after loading."""
import pickle

import pytest
import spacy

from spacy_cws.segmenter.featurizer import featurizer_data

from ..segmentation_data import TEXTS


def test_featurizer_data_round_trips_and_gives_the_same_features(trained_nlp, tmp_path):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    data = featurizer_data(segmenter.featurizer.to_bytes())
    assert list(data["symbols"]) == segmenter.symbols and data["bigrams"] == segmenter.featurizer.packed_bigrams
    trained_nlp.to_disk(tmp_path / "nlp")
    assert (tmp_path / "nlp" / "gd_segmenter" / "featurizer").is_file()
    assert "symbols" not in (tmp_path / "nlp" / "gd_segmenter" / "cfg").read_text(encoding="utf-8")
    loaded = spacy.load(tmp_path / "nlp").get_pipe("gd_segmenter")
    assert loaded.symbols == segmenter.symbols and loaded.criteria == segmenter.criteria
    for ours, theirs in zip(segmenter._featurize(TEXTS, [None] * len(TEXTS))[2], loaded._featurize(TEXTS, [None] * len(TEXTS))[2]):
        assert (ours == theirs).all()


def test_corrupt_featurizer_file_is_refused(trained_nlp, tmp_path):
    with pytest.raises(ValueError, match="featurizer"):
        featurizer_data(b"not msgpack at all \xc1")
    with pytest.raises(ValueError, match="not a spacy-cws featurizer"):
        featurizer_data(b"\x80")  # an empty msgpack map
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.to_disk(tmp_path / "nlp")
    (tmp_path / "nlp" / "gd_segmenter" / "featurizer").write_bytes(b"\x80")
    with pytest.raises(ValueError, match="not a spacy-cws featurizer"):
        spacy.load(tmp_path / "nlp")
