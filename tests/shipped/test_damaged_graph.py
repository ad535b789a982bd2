"""A copy of zh_cws_gd_sm whose ONNX graph is damaged or missing: a
DamagedPipelineError naming the file and how to get a good copy, never the
torch path in its place; the command line says it in one line."""
import json
import shutil
import subprocess
import sys

import numpy
import pytest
import spacy
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.damaged_pipeline import DamagedPipelineError
from spacy_cws.segmenter.serialization import GRAPH_KEY

from ..backends.test_torch_free_imports import WITHOUT_TORCH

pytest.importorskip("onnxruntime")

TEXT = "今天天气很好，新华社记者报道。"
# What is done to the graph's file: its first half kept, random bytes, emptied.
DAMAGES = {
    "truncated": lambda data: data[: len(data) // 2],
    "random": lambda data: numpy.random.default_rng(0).bytes(50_000),
    "empty": lambda data: b"",
}


@pytest.fixture(scope="module")
def shipped_folder():
    """The installed zh_cws_gd_sm's pipeline folder (its package's model subfolder)."""
    if not spacy.util.is_package("zh_cws_gd_sm"):
        pytest.skip("zh_cws_gd_sm is not installed: README's install command installs it from models/")
    return next(spacy.util.get_package_path("zh_cws_gd_sm").glob("*/config.cfg")).parent


def damaged_copy(shipped_folder, tmp_path, damage):
    """A copy of the pipeline folder with its graph damaged (a DAMAGES key) or "missing"."""
    folder = tmp_path / "zh_cws_gd_sm"
    shutil.copytree(shipped_folder, folder)
    graph = folder / "gd_segmenter" / GRAPH_KEY
    if damage == "missing":
        graph.unlink()
    else:
        graph.write_bytes(DAMAGES[damage](graph.read_bytes()))
    return folder


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_graph_is_named_when_first_run(shipped_folder, tmp_path, damage):
    folder = damaged_copy(shipped_folder, tmp_path, damage)
    nlp = spacy.load(folder)
    segmenter = nlp.get_pipe("gd_segmenter")
    with pytest.raises(DamagedPipelineError) as caught:
        nlp(TEXT)
    message = str(caught.value)
    assert f"cannot run {folder / 'gd_segmenter' / GRAPH_KEY}: it is damaged" in message
    assert "Reinstall the pipeline package" in message
    # Not run on torch instead: the weights were never loaded into it.
    assert segmenter.inference_backend == "onnxruntime" and segmenter.network.pending_weights is not None


def test_a_missing_graph_is_named_when_loading(shipped_folder, tmp_path):
    """zh_cws_gd_sm 0.6.1's cfg records no parts: its weights, which leave
    the bigram table to the graph, show that the graph belongs there."""
    folder = damaged_copy(shipped_folder, tmp_path, "missing")
    with pytest.raises(DamagedPipelineError) as caught:
        spacy.load(folder)
    message = str(caught.value)
    assert (
        f"{folder / 'gd_segmenter' / GRAPH_KEY} is missing" in message and "Reinstall the pipeline package" in message
    )


@pytest.mark.parametrize("damage", [*DAMAGES, "missing"])
def test_segment_says_what_is_wrong_with_the_graph_in_one_line(shipped_folder, tmp_path, damage):
    folder = damaged_copy(shipped_folder, tmp_path, damage)
    source = tmp_path / "input.txt"
    source.write_text(TEXT + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["segment", str(source), "--model", str(folder)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("✘ 'gd_segmenter' cannot ")
    assert str(folder / "gd_segmenter" / GRAPH_KEY) in lines[0] and "Reinstall the pipeline package" in lines[0]
    assert result.stdout == ""


def test_without_torch_a_damaged_or_missing_graph_is_named(shipped_folder, tmp_path):
    """In a user's install (no torch) a missing graph sent the pipeline to the
    torch path ("No module named 'torch'")."""
    folders = [damaged_copy(shipped_folder, tmp_path / damage, damage) for damage in ("truncated", "missing")]
    code = WITHOUT_TORCH + (
        "import json\n"
        "import spacy\n"
        "from spacy_cws.damaged_pipeline import DamagedPipelineError\n"
        "for folder in sys.argv[1:]:\n"
        "    try:\n"
        f"        spacy.load(folder)({TEXT!r})\n"
        "    except DamagedPipelineError as err:\n"
        "        print(json.dumps(str(err)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *map(str, folders)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(messages) == 2 and "is damaged" in messages[0] and "is missing" in messages[1]
    assert all(str(folder / "gd_segmenter" / GRAPH_KEY) in message for folder, message in zip(folders, messages))
