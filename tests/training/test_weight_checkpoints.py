"""average-weights reads weight checkpoints as tensors only: a file that holds any
other pickled object is refused, not unpickled (which could run any code)."""
import os
import pickle

import spacy
import torch
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.training.weight_checkpoints import checkpoint_path, save_weights


class MakesAFolder:
    """Unpickled, makes the folder ``path``: any code a pickle can run."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return os.mkdir, (self.path,)


def average(pipeline, checkpoints, output):
    return CliRunner().invoke(app, ["average-weights", str(pipeline), str(checkpoints), str(output)])


def test_a_checkpoint_holding_another_object_is_refused_unread(trained_nlp, tmp_path, monkeypatch):
    # What torch.load does by default before torch 2.6 (setup.cfg allows 2.1): unpickle anything.
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.to_disk(tmp_path / "pipeline")
    save_weights(nlp, checkpoint_path(tmp_path / "saved", 1))
    result = average(tmp_path / "pipeline", tmp_path / "saved", tmp_path / "mean")
    assert result.exit_code == 0, result.output  # save_weights' files load as tensors only
    assert spacy.load(tmp_path / "mean")("今天天气很好").text == "今天天气很好"

    hostile = checkpoint_path(tmp_path / "hostile", 1)
    hostile.parent.mkdir()
    states = torch.load(checkpoint_path(tmp_path / "saved", 1), weights_only=True)
    torch.save({**states, "note": MakesAFolder(tmp_path / "ran")}, hostile)
    result = average(tmp_path / "pipeline", hostile.parent, tmp_path / "mean2")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert f"{hostile} holds more than weights" in result.stderr
    assert not (tmp_path / "ran").exists() and not (tmp_path / "mean2").exists()
