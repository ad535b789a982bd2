"""The segmenter's settings: what acts at inference is the factory's (SegmenterSettings),
what acts in training is set at initialize and saved (TrainingSettings), and the
settings that moved are still read from earlier configs, with a warning."""
import dataclasses
import inspect
import warnings
from pathlib import Path

import pytest
import spacy
from confection import ConfigValidationError

from spacy_cws.segmenter.component import Segmenter
from spacy_cws.segmenter.factory import make_gd_segmenter
from spacy_cws.segmenter.moved_settings import MOVED_SETTINGS
from spacy_cws.segmenter.settings import SegmenterSettings
from spacy_cws.segmenter.training_settings import TrainingSettings

from ..segmentation_data import MODEL, blank_pipeline, make_examples

GD_MODEL = {"@architectures": "spacy-cws.GDTransformer.v2", **MODEL}
CHANGED = {"max_length": 64, "batch_units": 300, "user_dictionary_mode": "prefer", "opencc": None}
SETTINGS = [field.name for field in dataclasses.fields(SegmenterSettings)]
TRAINING = {"bigram_min_count": 1, "jackknife_folds": 3, "word_replacement_threshold": 1.5}


def _deprecations(caught):
    return [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]


def test_the_factory_writes_out_its_arguments():
    """make_gd_segmenter's own def lists its arguments (no signature made at
    import): the model, the inference settings and the scorer, then the moved
    settings, which are unset (None) unless an earlier config sets them."""
    assert "__signature__" not in vars(make_gd_segmenter)
    parameters = inspect.signature(make_gd_segmenter).parameters.values()
    keywords = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    assert keywords == ["model", *SETTINGS, "scorer", *MOVED_SETTINGS]
    assert all(p.default is None for p in parameters if p.name in MOVED_SETTINGS)
    assert len(SETTINGS) + 2 <= 15


def test_component_and_tokenizer_take_the_settings():
    nlp = blank_pipeline()
    component = nlp.add_pipe("gd_segmenter", config={"model": MODEL, **CHANGED})
    tokenizer_nlp = spacy.blank(
        "zh",
        config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.SegmenterTokenizer.v1", "model": GD_MODEL, **CHANGED}}},
    )
    for segmenter in (component, tokenizer_nlp.tokenizer.segmenter):
        assert isinstance(segmenter, Segmenter)
        assert {name: segmenter.cfg[name] for name in CHANGED} == CHANGED
        assert [name for name in segmenter.cfg if name in SETTINGS] == SETTINGS
    block = nlp.config["components"]["gd_segmenter"]
    assert set(block) == {"factory", "model", *SETTINGS, "scorer", *MOVED_SETTINGS}
    assert all(block[name] is None for name in MOVED_SETTINGS)


def test_training_settings_are_set_at_initialize_and_saved(tmp_path):
    """[initialize.components.gd_segmenter] sets them; the saved pipeline keeps
    them (a sourced component goes on training with them), and loads without a warning."""
    nlp = blank_pipeline()
    model = {**GD_MODEL, "@architectures": "spacy-cws.GDTransformer.v2", "bigram_width": 8}
    nlp.add_pipe("gd_segmenter", config={"model": model})
    nlp.config["initialize"]["components"]["gd_segmenter"] = TRAINING
    nlp.initialize(lambda: make_examples(nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    assert {key: segmenter.cfg[key] for key in TRAINING} == TRAINING and segmenter.bigrams
    assert segmenter.featurizer.word_replacement_threshold == 1.5
    nlp.to_disk(tmp_path / "nlp")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = spacy.load(tmp_path / "nlp").get_pipe("gd_segmenter")
    assert not _deprecations(caught)
    assert {key: loaded.cfg[key] for key in TRAINING} == TRAINING
    assert loaded.featurizer.word_replacement_threshold == 1.5


def test_moved_settings_of_an_earlier_config_are_read_with_one_warning(tmp_path):
    """A config of spacy-cws 0.5.1 sets training, export and precision
    settings in the component's block: one DeprecationWarning names them and
    where they belong now; the training ones and precision act as before."""
    nlp = blank_pipeline()
    earlier = {"jackknife_folds": 3, "bigram_min_count": 0, "precision": "bfloat16", "onnx_matmuls": "int8"}
    with pytest.warns(DeprecationWarning) as caught:
        segmenter = nlp.add_pipe("gd_segmenter", config={"model": MODEL, **earlier})
    (message,) = _deprecations(caught)
    assert all(key in message for key in earlier) and "[initialize.components.gd_segmenter]" in message
    assert "set_inference_precision" in message and "export-onnx --matmuls" in message
    assert segmenter.cfg["jackknife_folds"] == 3 and segmenter.network.torch_precision == "bfloat16"
    nlp.initialize(lambda: make_examples(nlp))
    nlp.to_disk(tmp_path / "nlp")
    with pytest.warns(DeprecationWarning, match="jackknife_folds"):
        saved = spacy.load(tmp_path / "nlp", config={"components": {"gd_segmenter": {"jackknife_folds": 5}}})
    assert saved.get_pipe("gd_segmenter").cfg["jackknife_folds"] == 5  # an earlier config's block wins, as it did


def test_a_training_setting_in_both_places_must_agree():
    nlp = blank_pipeline()
    with pytest.warns(DeprecationWarning):
        nlp.add_pipe("gd_segmenter", config={"model": MODEL, "jackknife_folds": 3})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"jackknife_folds": 4}
    with pytest.raises(ValueError, match=r"jackknife_folds = 3 in \[components.gd_segmenter\] and 4"):
        nlp.initialize(lambda: make_examples(nlp))


def test_the_reference_lists_every_setting():
    """docs/reference/settings.md and the factory and tokenizer tables of
    architectures.md are written by hand: a new setting must reach them
    (four were missing from architectures.md once)."""
    reference = Path(__file__).parents[2] / "docs" / "reference"
    settings, architectures = (
        (reference / name).read_text(encoding="utf8") for name in ("settings.md", "architectures.md")
    )
    sections = architectures.split("\n### ")
    tables = [
        next(part for part in sections if part.startswith(title))
        for title in ("`spacy-cws.SegmenterTokenizer.v1`", "`gd_segmenter`")
    ]
    for name in SETTINGS + list(MOVED_SETTINGS):
        row = f"| `{name}` |"
        assert row in settings and all(row in table for table in tables), name
    initialization = settings.split("## Initialization settings")[1].split("\n## ")[0]
    for field in dataclasses.fields(TrainingSettings):
        assert f"| `{field.name}` |" in initialization, field.name


@pytest.mark.parametrize("config", [{"max_lenght": 64}, {"max_length": "long"}])
def test_unknown_or_mistyped_settings_are_named(config):
    with pytest.raises(ConfigValidationError, match="max_len"):
        blank_pipeline().add_pipe("gd_segmenter", config={"model": MODEL, **config})
    with pytest.raises(ConfigValidationError, match="max_len"):
        spacy.blank(
            "zh",
            config={
                "nlp": {"tokenizer": {"@tokenizers": "spacy-cws.SegmenterTokenizer.v1", "model": GD_MODEL, **config}}
            },
        )


def test_out_of_range_settings_are_named():
    with pytest.raises(ValueError, match="jackknife_folds"):
        TrainingSettings(jackknife_folds=63)
    with pytest.raises(ValueError, match="batch_units"):
        SegmenterSettings(max_length=64, batch_units=65)
    with pytest.raises(TypeError):
        Segmenter(blank_pipeline().vocab, None, max_lenght=3)


@pytest.mark.parametrize("native, resolved", [(True, "bfloat16"), (False, "float32")])
def test_auto_precision_is_resolved_by_the_cpu(native, resolved, monkeypatch, tmp_path):
    """The torch copy runs float32 unless told; "auto" is resolved on the machine that predicts."""
    from spacy_cws.nets import inference

    monkeypatch.setattr(inference, "native_bfloat16", lambda: native)
    nlp = blank_pipeline()
    segmenter = nlp.add_pipe("gd_segmenter", config={"model": MODEL, "inference_backend": "torch"})
    nlp.initialize(lambda: make_examples(nlp))
    assert segmenter.inference_precision == "float32"
    segmenter.set_inference_precision("auto")
    assert segmenter.inference_precision == resolved


def test_unknown_precision_names_the_known_ones():
    segmenter = blank_pipeline().add_pipe("gd_segmenter", config={"model": MODEL})
    with pytest.raises(ValueError, match="'auto'"):
        segmenter.set_inference_precision("float16")
