"""Commands that gave a traceback, or wrote something, on bad input: now one
message on stderr, exit code 1, nothing written (issue 39, items 7 and 10)."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

REPO_ROOT = Path(__file__).resolve().parents[2]


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def assert_refused(result, named):
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr


def test_to_tokenizer_output_that_is_a_file(tmp_path):
    """to-tokenizer PIPELINE FILE raised NotADirectoryError after loading the pipeline."""
    if importlib.util.find_spec("zh_cws_gd_sm") is None:
        pytest.skip("zh_cws_gd_sm is not installed")
    existing = tmp_path / "notes.txt"
    existing.write_text("新华社北京电\n", encoding="utf-8")
    assert_refused(invoke("to-tokenizer", "zh_cws_gd_sm", existing), f"The output {existing} is a file")
    assert existing.read_text(encoding="utf-8") == "新华社北京电\n"


def test_report_without_matplotlib_says_how_to_install_it(shared_data, tmp_path):
    """report without matplotlib raised ImportError after making an empty
    output folder: report_plots swallowed the ImportError at import."""
    gold = shared_data / "sighan2005" / "pku" / "test_gold.utf8"
    words = shared_data / "sighan2005" / "pku" / "training_words.utf8"
    output = tmp_path / "report"
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from spacy_cws.cli import app\n"
        f"app({['report', str(gold), str(gold), '--train-words', str(words), '-o', str(output)]!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert (
        result.stderr.strip()
        == '✘ The report needs matplotlib: pip install "spacy-cws[report]" (or pip install matplotlib).'
    )
    assert not output.exists()


@pytest.mark.parametrize("content", [b"", b"\n  \r\n\t\n"], ids=["empty", "blank-lines"])
def test_convert_refuses_a_file_without_sentences(tmp_path, content):
    """convert of an empty file wrote an empty DocBin, exit 0."""
    source = tmp_path / "ctb6.seg"
    source.write_bytes(content)
    output, words = tmp_path / "train.spacy", tmp_path / "words.txt"
    assert_refused(invoke("convert", source, output, "--words-output", words), "ctb6.seg holds no sentence")
    assert not output.exists() and not words.exists()
