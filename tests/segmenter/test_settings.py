"""The segmenter's settings are written once (SegmenterSettings) and reach every form."""
import dataclasses
from pathlib import Path

import pytest
import spacy
from confection import ConfigValidationError

from spacy_cws.segmenter.component import Segmenter
from spacy_cws.segmenter.settings import SegmenterSettings

from ..segmentation_data import MODEL, blank_pipeline, make_examples

GD_MODEL = {"@architectures": "spacy-cws.GDTransformer.v1", **MODEL}
CHANGED = {"max_length": 64, "batch_units": 300, "jackknife_folds": 3, "user_dictionary_mode": "prefer", "opencc": None}


def test_component_and_tokenizer_take_the_settings():
    nlp = blank_pipeline()
    component = nlp.add_pipe("gd_segmenter", config={"model": MODEL, **CHANGED})
    tokenizer_nlp = spacy.blank(
        "zh", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.SegmenterTokenizer.v1", "model": GD_MODEL, **CHANGED}}}
    )
    names = [f.name for f in dataclasses.fields(SegmenterSettings)]
    for segmenter in (component, tokenizer_nlp.tokenizer.segmenter):
        assert isinstance(segmenter, Segmenter)
        assert {name: segmenter.cfg[name] for name in CHANGED} == CHANGED
        assert [name for name in segmenter.cfg if name in names] == names
    assert set(nlp.config["components"]["gd_segmenter"]) == {"factory", "model", *names, "scorer"}


def test_the_reference_lists_every_setting():
    """docs/reference/settings.md and the factory and tokenizer tables of
    architectures.md are written by hand: a new setting must reach them
    (four were missing from architectures.md once)."""
    reference = Path(__file__).parents[2] / "docs" / "reference"
    settings, architectures = ((reference / name).read_text(encoding="utf8") for name in ("settings.md", "architectures.md"))
    sections = architectures.split("\n### ")
    tables = [next(part for part in sections if part.startswith(title)) for title in ("`spacy-cws.SegmenterTokenizer.v1`", "`gd_segmenter`")]
    for field in dataclasses.fields(SegmenterSettings):
        row = f"| `{field.name}` |"
        assert row in settings and all(row in table for table in tables), field.name


@pytest.mark.parametrize("config", [{"max_lenght": 64}, {"max_length": "long"}])
def test_unknown_or_mistyped_settings_are_named(config):
    with pytest.raises(ConfigValidationError, match="max_len"):
        blank_pipeline().add_pipe("gd_segmenter", config={"model": MODEL, **config})
    with pytest.raises(ConfigValidationError, match="max_len"):
        spacy.blank("zh", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.SegmenterTokenizer.v1", "model": GD_MODEL, **config}}})


def test_out_of_range_settings_are_named():
    with pytest.raises(ValueError, match="jackknife_folds"):
        SegmenterSettings(jackknife_folds=63)
    with pytest.raises(TypeError):
        Segmenter(blank_pipeline().vocab, None, max_lenght=3)


@pytest.mark.parametrize("native, resolved", [(True, "bfloat16"), (False, "float32")])
def test_auto_precision_is_saved_as_auto_and_resolved_by_the_cpu(native, resolved, monkeypatch, tmp_path):
    """"auto" stays "auto" in a saved pipeline, so the machine that loads it chooses."""
    from spacy_cws.nets import inference

    monkeypatch.setattr(inference, "native_bfloat16", lambda: native)
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "precision": "auto"})
    nlp.initialize(lambda: make_examples(nlp))
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.config["components"]["gd_segmenter"]["precision"] == "auto"
    assert loaded.get_pipe("gd_segmenter").inference_precision == resolved


def test_unknown_precision_names_the_known_ones():
    with pytest.raises(ValueError, match="'auto'"):
        SegmenterSettings(precision="float16")
