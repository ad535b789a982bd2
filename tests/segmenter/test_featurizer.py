"""The featurizer: its data saved under its own key, and features equal after loading."""
import pickle

import pytest
import spacy

from spacy_cws.segmenter.featurizer import featurizer_data

from ..segmentation_data import TEXTS


def test_featurizer_data_round_trips_and_gives_the_same_features(trained_nlp, tmp_path):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    data = featurizer_data(segmenter.featurizer.to_bytes())
    assert list(data["symbols"]) == segmenter.symbols
    assert data["bigrams"].tolist() == segmenter.featurizer.symbol_ids.pair_unigram_ids().tolist()
    assert (data["matcher"] is None) == (segmenter.featurizer.matcher is None)  # saved as built
    trained_nlp.to_disk(tmp_path / "nlp")
    assert (tmp_path / "nlp" / "gd_segmenter" / "featurizer").is_file()
    assert "symbols" not in (tmp_path / "nlp" / "gd_segmenter" / "cfg").read_text(encoding="utf-8")
    loaded = spacy.load(tmp_path / "nlp").get_pipe("gd_segmenter")
    assert loaded.symbols == segmenter.symbols and loaded.criteria == segmenter.criteria
    assert loaded.bigrams == segmenter.bigrams and loaded.lexicons == segmenter.lexicons
    ours_and_theirs = (
        pipe.training.featurize(TEXTS, [None] * len(TEXTS), pipe.name)[2] for pipe in (segmenter, loaded)
    )
    for ours, theirs in zip(*ours_and_theirs):
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


def test_saved_matcher_loads_as_built_and_is_rebuilt_for_another_view(zh_cws_gd_sm_nlp, tmp_path):
    """The shipped lexicons' matcher is saved as built and loads with the
    same keys and features; a config override of the normaliser (opencc)
    changes the keys a matcher needs, so the saved one is not taken."""
    segmenter = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter")
    zh_cws_gd_sm_nlp.to_disk(tmp_path / "nlp", exclude=["model", "graph"])
    (tmp_path / "nlp" / "gd_segmenter" / "model").write_bytes(segmenter._model_bytes())
    loaded = spacy.load(tmp_path / "nlp").get_pipe("gd_segmenter")
    assert loaded.featurizer.matcher.n_keys == segmenter.featurizer.matcher.n_keys > 300_000
    assert not loaded.featurizer.matcher._key_lengths.flags.writeable  # read in place from the saved bytes
    texts = ["臺灣的資訊工程師在北京大學演講。", "我们在长江大桥上看到了新华社记者。"]
    for ours, theirs in zip(
        *(pipe.training.featurize(texts, [None] * 2, pipe.name)[2] for pipe in (segmenter, loaded))
    ):
        assert (ours == theirs).all()
    override = {"components": {"gd_segmenter": {"opencc": None}}}
    rebuilt = spacy.load(tmp_path / "nlp", config=override).get_pipe("gd_segmenter")
    assert rebuilt.featurizer.matcher.signature == [True, True, None]
    assert loaded.featurizer.matcher.signature == [True, True, "t2s"]


def test_word_hashes_are_kept_only_for_a_model_with_word_slots(trained_nlp):
    """Only word slots read a word's hash: a matcher for a model without
    them keeps none (1.4 MB of a shipped pipeline), with the same flags."""
    from spacy_cws.lexicon.channel_storage import pack_channel
    from spacy_cws.segmenter.featurizer import channel_matcher

    normaliser = trained_nlp.get_pipe("gd_segmenter").normaliser
    channels = [
        pack_channel("training", dict.fromkeys(["中国", "经济", "建设", "边境"], -1)),
        pack_channel("jieba", dict.fromkeys(["北京大学", "新华社", "经济建设"], -1)),
    ]
    plain = channel_matcher(channels, normaliser)
    slotted = channel_matcher(channels, normaliser, word_slots=True)
    assert plain.embedded_channel is None and "crc32" not in plain._index.values
    assert slotted.embedded_channel == 0 and "crc32" in slotted._index.values
    assert len(plain.to_bytes()) < len(slotted.to_bytes())
    views = normaliser.views(["新华社报道中国经济建设成就显著。", "北京大学在边境城市"])
    symbols, spaced = [view.symbols for view in views], [view.spaced for view in views]
    for ours, theirs in zip(plain.batch_features(symbols, spaced), slotted.batch_features(symbols, spaced)):
        assert ours.any() and (ours == theirs).all()
