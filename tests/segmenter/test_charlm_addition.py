"""``add-charlm`` (segmenter/charlm_addition.py): a trained GD segmenter given the character LM's features segments
exactly as before until trained, saves the LM in its config, trains on through configs/cpu_teacher_charlm.cfg
(the projection and the segmenter learn, the LM stays frozen), and refuses what it cannot grow."""
import numpy
import pytest
import spacy
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.nets.wrapped_module import torch_module

from ..nets.test_charlm_features import POSITIONS, charlm  # noqa: F401  (a fixture)
from ..segmentation_data import TEXTS, blank_pipeline, criterion_words, make_examples
from ..training.test_configs import _changed, _train, tiny_corpus  # noqa: F401  (a fixture)

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")


def _grow(nlp, charlm, tmp_path):  # noqa: F811
    """``nlp`` saved, then ``add-charlm`` on it. RETURNS the folders of both."""
    nlp.to_disk(tmp_path / "base")
    result = CliRunner().invoke(app, ["add-charlm", str(tmp_path / "base"), str(charlm), str(tmp_path / "grown")])
    assert result.exit_code == 0, result.output
    return tmp_path / "base", tmp_path / "grown"


def test_the_grown_segmenter_segments_as_before_under_every_criterion(two_criteria_nlp, charlm, tmp_path):  # noqa: F811
    _, grown_folder = _grow(two_criteria_nlp, charlm, tmp_path)
    grown = spacy.load(grown_folder)
    config = grown.get_pipe_config("gd_segmenter")
    assert config["model"]["@architectures"] == "spacy-cws.GDTransformer.v4"
    assert config["model"]["charlm_path"] == str(charlm) and config["max_length"] == POSITIONS - 2
    segmenter = grown.get_pipe("gd_segmenter")
    segmenter.network.require_weights("gd_segmenter")
    projection = torch_module(segmenter.model).charlm.projection
    assert not projection.weight.any() and not projection.bias.any()
    assert all(len(text) <= POSITIONS - 2 for text in TEXTS)  # the shorter max_length cuts none of them
    for criterion in ("coarse", "fine"):
        assert criterion_words(grown, TEXTS, criterion) == criterion_words(two_criteria_nlp, TEXTS, criterion)
    for before, after in zip(two_criteria_nlp.pipe(TEXTS), grown.pipe(TEXTS)):
        numpy.testing.assert_allclose(before._.gap_probs, after._.gap_probs, atol=1e-6)


def test_the_teacher_config_trains_it_on_and_leaves_the_lm_frozen(trained_nlp, charlm, tiny_corpus, tmp_path):  # noqa: F811
    base, grown = _grow(trained_nlp, charlm, tmp_path)
    nlp, before, after = _train("cpu_teacher_charlm", tiny_corpus, **{"paths.base": str(grown)})
    changed = _changed(before, after)
    assert "charlm.projection.weight" in changed and "embedding.weight" in changed
    assert not any(name.startswith("charlm.encoder") for name in changed)
    assert all(nlp(text).text == text for text in TEXTS)
    # The comparison: the same config on the pipeline without the LM.
    plain, before, after = _train("cpu_teacher_charlm", tiny_corpus, **{"paths.base": str(base)})
    assert _changed(before, after) and not any(name.startswith("charlm") for name in after)


def test_what_cannot_grow_is_refused_naming_why(trained_nlp, charlm, tmp_path):  # noqa: F811
    _, grown = _grow(trained_nlp, charlm, tmp_path)
    runner = CliRunner()
    again = runner.invoke(app, ["add-charlm", str(grown), str(charlm), str(tmp_path / "twice")])
    assert again.exit_code == 1 and "with a character LM" in again.stderr
    no_lm = runner.invoke(app, ["add-charlm", str(grown), str(tmp_path), str(tmp_path / "none")])
    assert no_lm.exit_code == 1 and "is not a character LM folder" in no_lm.stderr
    tagger = blank_pipeline()
    tagger.add_pipe("gd_segmenter", config={"model": {
        "@architectures": "spacy-cws.BMESTagger.v3", "unigram_width": 16, "bigram_width": 0, "width": 32, "depth": 1,
        "n_heads": 4, "ff_width": 64, "window": 5, "decoder": "crf"}, "max_length": 64})
    tagger.initialize(lambda: make_examples(tagger))
    tagger.to_disk(tmp_path / "tagger")
    refused = runner.invoke(app, ["add-charlm", str(tmp_path / "tagger"), str(charlm), str(tmp_path / "t")])
    assert refused.exit_code == 1 and "are added to a GD-Transformer" in refused.stderr
    assert not (tmp_path / "twice").exists() and not (tmp_path / "t").exists()
