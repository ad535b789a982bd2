"""A training run stopped any number of times and resumed ends with the
weights of the same run left alone (python -m spacy_cws train --resume)."""
from itertools import islice
from typing import List

import pickle

import pytest
import torch
from spacy.tokens import Doc, DocBin
from spacy.training.initialize import init_nlp
from spacy.util import load_config, registry
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.nets.wrapped_module import torch_module
from spacy_cws.training.resumable_training import (
    STATE_FILE,
    ResumeError,
    resume_folder,
    resume_training,
    train_resumably,
)
from spacy_cws.training.weight_checkpoints import checkpoint_step, create_save_weights, list_checkpoints

from ..segmentation_data import blank_pipeline
from .test_configs import CONFIGS

STEPS = 8
OVERRIDES = {
    "training.max_steps": STEPS,
    "training.max_epochs": 0,
    "training.eval_frequency": 2,
    "training.batcher.size": 512,
    "training.optimizer.learn_rate.warmup_steps": 3,
    "training.optimizer.learn_rate.total_steps": STEPS,
    "training.logger.progress_bar": False,
    "paths.ngram_vectors": None,
    "initialize.components.gd_segmenter.lexicons": [],
    "initialize.components.gd_segmenter.training_lexicon": False,
    "components.gd_segmenter.model.width": 16,
    "components.gd_segmenter.model.ff_width": 32,
    "components.gd_segmenter.model.n_heads": 2,
    "components.gd_segmenter.model.bigram_width": 8,
    "components.gd_segmenter.model.trigram_width": 0,
}
_interrupted = set()
_evaluated_steps: List[int] = []


@registry.loggers("test-resume.evaluated_steps.v1")
def evaluated_steps():
    """A logger that records the step of each evaluation."""

    def setup(nlp, stdout, stderr):
        def log_step(info):
            if info is not None:
                _evaluated_steps.append(info["step"])

        return log_step, lambda: None

    return setup


@registry.callbacks("test-resume.stop_before.v1")
def stop_before(steps: List[int], checkpoints: str):
    """A before_update callback that stops the run (as Ctrl-C would) before
    each of ``steps``, once each, after saving the weights (spacy-cws.save_weights.v1) every step."""
    save_weights = create_save_weights(checkpoints, every=1, start=1)

    def before_update(nlp, args):
        save_weights(nlp, args)
        if args["step"] in steps and args["step"] not in _interrupted:
            _interrupted.add(args["step"])
            raise KeyboardInterrupt

    return before_update


@pytest.fixture(scope="module")
def ctb6_corpus(shared_data, tmp_path_factory):
    """120 CTB6 training sentences and 20 dev sentences as DocBins."""
    folder = tmp_path_factory.mktemp("ctb6")
    nlp = blank_pipeline()
    for split, source, count in (("train", "train.seg", 120), ("dev", "dev.seg", 20)):
        sentences = islice(read_segmented(shared_data / "ctb6" / source), count)
        docs = [Doc(nlp.vocab, words=s.words, spaces=[False] * len(s.words)) for s in sentences]
        DocBin(docs=docs).to_disk(folder / f"{split}.spacy")
    return folder


def _config(corpus, stop_before_steps, checkpoints, eval_frequency=2):
    overrides = {
        **OVERRIDES,
        "training.eval_frequency": eval_frequency,
        "paths.train": str(corpus / "train.spacy"),
        "paths.dev": str(corpus / "dev.spacy"),
        "training.before_update": {
            "@callbacks": "test-resume.stop_before.v1", "steps": stop_before_steps, "checkpoints": str(checkpoints),
        },
    }
    return load_config(CONFIGS / "cpu_lexicon.cfg", overrides=overrides, interpolate=False)


def _weights(path):
    import spacy

    module = torch_module(spacy.load(path).get_pipe("gd_segmenter").model)
    return module.state_dict()


@pytest.mark.slow
def test_a_run_stopped_twice_and_resumed_ends_as_one_left_alone(ctb6_corpus, tmp_path):
    train_resumably(init_nlp(_config(ctb6_corpus, [], tmp_path / "whole-checkpoints")), tmp_path / "whole")
    output = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        train_resumably(init_nlp(_config(ctb6_corpus, [3, 7], tmp_path / "checkpoints")), output)
    with pytest.raises(KeyboardInterrupt):  # resumed at step 3 (after the evaluation at step 2), stopped before 7
        resume_training(output)
    resume_training(output)
    whole, resumed = _weights(tmp_path / "whole" / "model-last"), _weights(output / "model-last")
    assert whole.keys() == resumed.keys()
    for name in whole:
        assert torch.equal(whole[name], resumed[name]), name
    steps = [checkpoint_step(path) for path in list_checkpoints(tmp_path / "checkpoints")]
    assert steps == list(range(1, STEPS + 1))  # numbered by the run's steps, not the restart's


def test_a_stop_between_evaluations_resumes_from_the_last_timed_save(ctb6_corpus, tmp_path):
    """Evaluating only at step 0 but saving the restart state after every
    step, a run stopped before step 6 continues at step 6, not 1, and ends
    with the weights of the run left alone."""
    whole = tmp_path / "whole"
    train_resumably(init_nlp(_config(ctb6_corpus, [], tmp_path / "whole-checkpoints", eval_frequency=100)), whole)
    output = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        nlp = init_nlp(_config(ctb6_corpus, [6], tmp_path / "checkpoints", eval_frequency=100))
        train_resumably(nlp, output, save_seconds=0)
    with (resume_folder(output) / STATE_FILE).open("rb") as file_:
        assert pickle.load(file_)["step"] == 5
    resume_training(output, save_seconds=0)
    expected, resumed = _weights(whole / "model-last"), _weights(output / "model-last")
    for name in expected:
        assert torch.equal(expected[name], resumed[name]), name


def test_a_resumed_run_evaluates_at_the_steps_of_a_run_left_alone(ctb6_corpus, tmp_path):
    """Stopped before step 4 and resumed from step 3, a 7-step run evaluating
    every 2 steps evaluates at 0, 2, 4, 6 and its last step, 7, as when left
    alone (not at 3, 5 and 7, counting from the restart)."""
    config = _config(ctb6_corpus, [4], tmp_path / "checkpoints")
    config["training"]["max_steps"] = 7
    config["training"]["logger"] = {"@loggers": "test-resume.evaluated_steps.v1"}
    _evaluated_steps.clear()
    with pytest.raises(KeyboardInterrupt):
        train_resumably(init_nlp(config), tmp_path / "run")
    resume_training(tmp_path / "run")
    assert _evaluated_steps == [0, 2, 4, 6, 7]


def test_resuming_a_folder_without_a_run_is_an_error(tmp_path):
    with pytest.raises(ResumeError, match="no run to resume"):
        resume_training(tmp_path)


def test_the_command_resumes_or_refuses_clearly(ctb6_corpus, tmp_path):
    """--resume begins a run when there is none and continues one that was
    stopped; without it, or with overrides, a stopped run is not overwritten."""
    config = tmp_path / "config.cfg"
    _config(ctb6_corpus, [5], tmp_path / "checkpoints").to_disk(config)
    output = tmp_path / "run"
    runner = CliRunner()
    stopped = runner.invoke(app, ["train", str(config), "--output", str(output), "--resume"])
    assert stopped.exit_code == 130 and (output / "resume").exists()  # stopped before step 5, as Ctrl-C would
    refused = runner.invoke(app, ["train", str(config), "--output", str(output)])
    assert refused.exit_code == 1 and "resume it" in refused.output
    with_overrides = runner.invoke(
        app, ["train", str(config), "--output", str(output), "--resume", "--training.max_steps", "4"]
    )
    assert with_overrides.exit_code == 1 and "training.max_steps: 8 -> 4" in with_overrides.output
    same = ["--training.max_steps", str(STEPS), "--paths.dev", str(ctb6_corpus / "dev.spacy")]
    result = runner.invoke(app, ["train", str(config), "--output", str(output), "--resume", *same])
    assert result.exit_code == 0, result.output
    assert (output / "model-best").exists() and (output / "model-last").exists()


def test_a_config_that_cannot_initialize_is_a_clear_error(ctb6_corpus, tmp_path):
    """A pretrained-vectors folder that is not there: one line naming the config and the cause, exit 1."""
    config = tmp_path / "config.cfg"
    _config(ctb6_corpus, [], tmp_path / "checkpoints").to_disk(config)
    result = CliRunner().invoke(
        app, ["train", str(config), "--output", str(tmp_path / "run"), "--paths.ngram_vectors", str(tmp_path / "none")]
    )
    assert result.exit_code == 1 and f"Cannot initialize the pipeline of {config}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
