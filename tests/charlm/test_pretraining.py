"""Pretraining a tiny character LM on ZX text (charlm/pretraining.py): it learns, a stopped run resumes
to the same weights, and the folder loads by path in transformers and in spacy-transformers."""
import json
import shutil

import numpy
import pytest
import spacy

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("accelerate")
pytest.importorskip("spacy_transformers")

from spacy_cws.charlm.pretraining import CharLMSettings, pretrain_charlm  # noqa: E402
from spacy_cws.charlm.pretraining_text import PretrainingText  # noqa: E402

from ..adaptation.conftest import zx_raw_lines  # noqa: E402

TINY = dict(layers=1, width=32, heads=2, intermediate=64, max_length=64, batch_size=16, warmup_steps=0,
            learn_rate=3e-3, logging_steps=2, min_char_count=1)


@pytest.fixture(scope="module")
def text(shared_data):
    lines = zx_raw_lines(shared_data, 400)
    return PretrainingText(train=lines[:360], heldout=lines[360:])


@pytest.fixture(scope="module")
def trained(text, tmp_path_factory):
    output = tmp_path_factory.mktemp("lm") / "run"
    metrics = pretrain_charlm(text, output, CharLMSettings(steps=30, save_steps=15, **TINY))
    return output, metrics


def test_the_lm_learns_and_measures_itself_on_held_out_text(trained, text):
    output, metrics = trained
    assert metrics["steps"] == 30 and metrics["heldout_texts"] == 40
    assert metrics["heldout_masked_tokens"] > 0.1 * sum(len(t) for t in text.heldout)
    # Better than always guessing the most frequent character (，) of the text.
    chars = "".join(text.train)
    most_frequent_share = max(chars.count(c) for c in set(chars)) / len(chars)
    assert metrics["heldout_masked_lm_accuracy"] > most_frequent_share
    assert json.loads((output / "metrics.json").read_text(encoding="utf-8"))["steps"] == 30


def test_a_stopped_run_resumes_from_its_last_checkpoint(trained, text, tmp_path):
    """A checkpoint holds what a restart needs (weights, optimizer, schedule, random states); a run stopped
    after it continues from its step to the end and learns as much as the whole run did."""
    output, whole = trained
    checkpoint = output / "checkpoints" / "checkpoint-15"
    saved = {path.name for path in checkpoint.iterdir()}
    assert {"optimizer.pt", "scheduler.pt", "rng_state.pth", "trainer_state.json"} <= saved
    stopped = tmp_path / "run"
    shutil.copytree(output, stopped)
    shutil.rmtree(stopped / "checkpoints" / "checkpoint-30")  # as if stopped between step 15 and 30
    shutil.rmtree(stopped / "model")
    metrics = pretrain_charlm(text, stopped, CharLMSettings(steps=30, save_steps=15, **TINY), resume=True)
    assert metrics["resumed_from"].endswith("checkpoint-15") and metrics["steps"] == 30
    assert abs(metrics["heldout_masked_lm_accuracy"] - whole["heldout_masked_lm_accuracy"]) < 0.05
    with pytest.raises(ValueError, match="keeps the settings it began with"):
        pretrain_charlm(text, stopped, CharLMSettings(steps=30, save_steps=15, **{**TINY, "width": 64}), resume=True)


def test_the_folder_loads_in_spacy_transformers_by_path(trained):
    output, _ = trained
    nlp = spacy.blank("zh")
    nlp.add_pipe("transformer", config={"model": {
        "@architectures": "spacy-cws.LocalTransformerModel.v1", "name": str(output / "model"),
        "get_spans": {"@span_getters": "spacy-transformers.strided_spans.v1", "window": 32, "stride": 24},
    }})
    nlp.initialize()
    doc = nlp("张小凡看着前方那个中年文士。")
    tensor = doc._.trf_data.tensors[0]
    assert tensor.shape[-1] == 32 and numpy.isfinite(tensor).all()
    wordpieces = doc._.trf_data.wordpieces.strings[0]
    assert wordpieces[0] == "[CLS]" and "[UNK]" not in wordpieces and "张" in wordpieces
