"""Pretraining a tiny character LM on ZX text (charlm/pretraining.py, through ``pretrain-charlm``): it
learns, a stopped or time-limited run resumes from its last checkpoint, text collected with spaCy trains
where spaCy is missing, an ended run is measured again the same way, and the folder loads by path in
transformers and in spacy-transformers.

Training runs in a child process: transformers' Trainer leaves the test process in a state in which
processes forked from it later (``segment --n-process``) can hang."""
import json
import math
import os
import shutil
import subprocess
import sys

import numpy
import pytest
import spacy

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("accelerate")
pytest.importorskip("spacy_transformers")

from ..adaptation.conftest import zx_raw_lines  # noqa: E402
from ..conftest import REPO_ROOT  # noqa: E402
from .test_pretraining_text import write_docbin  # noqa: E402

TINY = ["--model.layers", "1", "--model.width", "32", "--model.heads", "2", "--model.intermediate", "64",
        "--model.max_length", "64", "--training.batch_size", "16", "--training.warmup_steps", "0",
        "--training.learn_rate", "0.003", "--training.logging_steps", "2", "--text.min_char_count", "1",
        "--text.heldout_share", "0.1", "--training.steps", "30", "--training.save_steps", "15"]


def pretrain(output, corpora, *options):
    """``python -m spacy_cws pretrain-charlm OUTPUT CORPORA... OPTIONS`` with the tiny settings (``options``
    given after them win), in a child process."""
    command = [sys.executable, "-m", "spacy_cws", "pretrain-charlm", str(output), *map(str, corpora), *TINY]
    return subprocess.run([*command, *map(str, options)], capture_output=True, text=True, timeout=600, cwd=REPO_ROOT)


def metrics(output):
    return json.loads((output / "metrics.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def trained(shared_data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("lm")
    lines = zx_raw_lines(shared_data, 400)
    corpus = write_docbin(folder / "zx.spacy", lines)
    result = pretrain(folder / "run", [corpus])
    assert result.returncode == 0, result.stderr
    return folder / "run", corpus, lines


def test_the_lm_learns_and_measures_itself_on_held_out_text(trained):
    output, _, _ = trained
    measured = metrics(output)
    assert measured["steps"] == 30 and 20 < measured["heldout_texts"] < 60
    assert measured["heldout_masked_tokens"] > 100
    # 30 steps take the loss well below a uniform guess over the vocabulary (ln V), and the held-out
    # accuracy above a uniform guess's 1 / V.
    assert measured["last_train_loss"] < 0.9 * math.log(measured["vocab_size"])
    assert measured["heldout_masked_lm_accuracy"] > 1 / measured["vocab_size"]


def test_a_stopped_run_resumes_from_its_last_checkpoint(trained, tmp_path):
    """A checkpoint holds what a restart needs (weights, optimizer, schedule, random states); a run stopped
    after it continues from its step to the end and learns as much as the whole run did."""
    output, corpus, _ = trained
    saved = {path.name for path in (output / "checkpoints" / "checkpoint-15").iterdir()}
    assert {"optimizer.pt", "scheduler.pt", "rng_state.pth", "trainer_state.json"} <= saved
    stopped = tmp_path / "run"
    shutil.copytree(output, stopped)
    shutil.rmtree(stopped / "checkpoints" / "checkpoint-30")  # as if stopped between step 15 and 30
    shutil.rmtree(stopped / "model")
    result = pretrain(stopped, [corpus], "--resume")
    assert result.returncode == 0, result.stderr
    resumed = metrics(stopped)
    assert resumed["resumed_from"].endswith("checkpoint-15") and resumed["steps"] == 30
    assert abs(resumed["heldout_masked_lm_accuracy"] - metrics(output)["heldout_masked_lm_accuracy"]) < 0.05
    refused = pretrain(stopped, [corpus], "--resume", "--model.width", "64")
    assert refused.returncode == 1 and "keeps the settings it began with" in refused.stderr


def test_an_ended_run_is_measured_again_on_the_same_tokens(trained, tmp_path):
    output, corpus, _ = trained
    again = tmp_path / "run"
    shutil.copytree(output, again)
    result = pretrain(again, [corpus], "--resume")
    assert result.returncode == 0, result.stderr
    assert metrics(again)["steps"] == 30 and metrics(again)["resumed_from"].endswith("checkpoint-30")  # no step more
    assert metrics(again)["heldout_masked_lm_accuracy"] == metrics(output)["heldout_masked_lm_accuracy"]
    begun_again = pretrain(again, [corpus])
    assert begun_again.returncode == 1 and "holds a run: pass --resume" in begun_again.stderr


def test_the_folder_loads_in_spacy_transformers_by_path(trained):
    output, _, _ = trained
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


def test_a_time_limited_run_stops_with_a_checkpoint_that_resume_continues(trained, tmp_path):
    """--max-minutes: the run stops after its first step past the limit, saves a checkpoint there and a
    measured model; --resume then trains the remaining steps."""
    _, corpus, _ = trained
    limited = tmp_path / "run"
    result = pretrain(limited, [corpus], "--max-minutes", "0.0001")
    assert result.returncode == 0, result.stderr
    assert metrics(limited)["steps"] == 1 and (limited / "checkpoints" / "checkpoint-1").is_dir()
    assert (limited / "model" / "config.json").is_file()
    result = pretrain(limited, [corpus], "--resume")
    assert result.returncode == 0, result.stderr
    assert metrics(limited)["steps"] == 30 and metrics(limited)["resumed_from"].endswith("checkpoint-1")
    refused = pretrain(tmp_path / "other", [corpus], "--max-minutes", "0")
    assert refused.returncode == 1 and "max_minutes must be above 0" in refused.stderr


def test_text_collected_with_spacy_pretrains_where_spacy_cannot_be_imported(trained, tmp_path):
    """scripts/charlm_prepared_text.py: ``pretrain`` in a process where importing spaCy fails writes the
    run that ``pretrain-charlm --resume`` then continues."""
    _, corpus, _ = trained
    script = str(REPO_ROOT / "scripts" / "charlm_prepared_text.py")
    config = tmp_path / "tiny.cfg"
    options = dict(zip(TINY[::2], TINY[1::2]))
    sections = {}
    for key, value in options.items():
        section, name = key[2:].split(".")
        sections.setdefault(section, []).append(f"{name} = {value}")
    config.write_text("".join(f"[{s}]\n" + "\n".join(lines) + "\n\n" for s, lines in sections.items()))
    text = tmp_path / "text.json.xz"
    collected = subprocess.run([sys.executable, script, "collect", str(text), str(corpus), "--config", str(config)],
                               capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert collected.returncode == 0, collected.stderr
    blocker = tmp_path / "no_spacy"
    (blocker / "spacy").mkdir(parents=True)
    (blocker / "spacy" / "__init__.py").write_text("raise ImportError('spaCy is not installed here')\n")
    run = tmp_path / "run"
    trained_there = subprocess.run(
        [sys.executable, script, "pretrain", str(text), str(run), "--max-minutes", "0.0001"],
        capture_output=True, text=True, timeout=600, cwd=REPO_ROOT, env={**os.environ, "PYTHONPATH": str(blocker)},
    )
    assert trained_there.returncode == 0, trained_there.stderr
    assert metrics(run)["steps"] == 1
    resumed_here = pretrain(run, [corpus], "--resume")
    assert resumed_here.returncode == 0, resumed_here.stderr
    assert metrics(run)["steps"] == 30 and metrics(run)["resumed_from"].endswith("checkpoint-1")
