"""``segment`` at corpus scale: --n-process, --resume after a kill, --input-format jsonl."""
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

from .test_segment import model_path, model_paths  # noqa: F401 (fixtures)

REPO_ROOT = Path(__file__).resolve().parents[2]


def segment(model, *args):
    return CliRunner().invoke(app, ["segment", "--model", str(model), *map(str, args)])


@pytest.fixture(scope="module")
def ctb6_text(shared_data, tmp_path_factory):
    """The first 400 CTB6 test sentences, unsegmented, one a line."""
    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n")[:400]
    path = tmp_path_factory.mktemp("ctb6") / "input.txt"
    path.write_text("".join(line.replace(" ", "") + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reference(model_path, ctb6_text, tmp_path_factory):  # noqa: F811
    """One uninterrupted run in one process."""
    output = tmp_path_factory.mktemp("reference") / "out.txt"
    result = segment(model_path, ctb6_text, "-o", output, "--batch-size", "16")
    assert result.exit_code == 0, result.output
    return output.read_bytes()


def test_n_process_keeps_input_order(model_path, ctb6_text, reference, tmp_path):  # noqa: F811
    output = tmp_path / "out.txt"
    result = segment(model_path, ctb6_text, "-o", output, "--batch-size", "16", "--n-process", "2")
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == reference


def test_jsonl_input_gives_the_same_output(model_path, ctb6_text, reference, tmp_path):  # noqa: F811
    records = tmp_path / "in.jsonl"
    lines = ctb6_text.read_text(encoding="utf-8").split("\n")[:-1]
    records.write_text("".join(json.dumps({"id": i, "text": line}) + "\n" for i, line in enumerate(lines)), "utf-8")
    result = segment(model_path, records, "--input-format", "jsonl", "--batch-size", "16")
    assert result.exit_code == 0, result.output
    assert result.stdout.encode("utf-8") == reference


def test_jsonl_input_without_text_is_named(model_path, tmp_path):  # noqa: F811
    records = tmp_path / "in.jsonl"
    records.write_text('{"text": "数据"}\n{"body": "数据"}\n', encoding="utf-8")
    result = segment(model_path, records, "--input-format", "jsonl")
    assert result.exit_code == 1 and "in.jsonl, line 2" in result.stderr


def test_resume_after_a_partial_line(model_path, ctb6_text, reference, tmp_path):  # noqa: F811
    output = tmp_path / "out.txt"
    # 100 complete lines and a cut one, as a killed run leaves them.
    output.write_bytes(b"".join(reference.splitlines(keepends=True)[:100]) + reference.splitlines()[100][:5])
    result = segment(model_path, ctb6_text, "-o", output, "--batch-size", "16", "--resume")
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == reference
    # A rerun of a finished output adds nothing.
    assert segment(model_path, ctb6_text, "-o", output, "--resume").exit_code == 0
    assert output.read_bytes() == reference


def test_resume_needs_an_output(model_path, ctb6_text):  # noqa: F811
    result = segment(model_path, ctb6_text, "--resume")
    assert result.exit_code == 1 and "--resume needs --output" in result.stderr


@pytest.mark.slow
def test_killed_run_resumes_byte_identical(model_path, ctb6_text, reference, tmp_path):  # noqa: F811
    """A run killed mid-output (SIGKILL) and resumed gives the uninterrupted
    run's bytes. The killed run reads standard input, fed two thirds of the
    lines and never closed: it cannot finish before it is killed."""
    output = tmp_path / "out.txt"
    command = [sys.executable, "-m", "spacy_cws", "segment", "--model", str(model_path), "-o", str(output),
               "--batch-size", "8"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "OMP_NUM_THREADS": "1"}
    lines = ctb6_text.read_bytes().splitlines(keepends=True)
    fed = len(lines) * 2 // 3
    # The output of the fed lines, less what the run may still hold in its
    # write buffer (open's: the block size, at least io.DEFAULT_BUFFER_SIZE),
    # reaches a third of the whole output.
    wanted, buffered = len(reference) // 3, max(io.DEFAULT_BUFFER_SIZE, os.stat(tmp_path).st_blksize)
    assert len(b"".join(reference.splitlines(keepends=True)[:fed])) - buffered > wanted
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        process.stdin.write(b"".join(lines[:fed]))
        process.stdin.flush()
        while not output.exists() or output.stat().st_size < wanted:
            assert process.poll() is None, process.stderr.read().decode()
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        process.kill()
        process.stdin.close()
    assert 0 < output.stat().st_size < len(reference)
    resumed = subprocess.run(command + [str(ctb6_text), "--resume"], env=env, capture_output=True)
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert output.read_bytes() == reference
