"""``segment`` with the shipped small pipeline on bad or unusual input: one
message on stderr naming what to fix, no traceback, no text lost (issue 39)."""
import importlib.util
import json

import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

SHIPPED_SMALL = "zh_cws_gd_sm"
# Real sentences (CTB6-style news text) and what zh_cws_gd_sm makes of them.
LINES = ["今天天气很好", "新华社北京电", "上海浦东开发与法制建设同步"]


@pytest.fixture(scope="module", autouse=True)
def shipped_small():
    if importlib.util.find_spec(SHIPPED_SMALL) is None:
        pytest.skip(f"{SHIPPED_SMALL} is not installed: README's install command installs it from models/")


def segment(*args, input=None):
    """Run ``segment --model zh_cws_gd_sm``; RETURNS the click Result (stdout and stderr apart)."""
    return CliRunner().invoke(app, ["segment", "--model", SHIPPED_SMALL, *map(str, args)], input=input)


def assert_refused(result, *named):
    """One ✘ line on stderr naming each of ``named``, exit code 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith("✘")]
    assert len(errors) == 1, result.stderr
    for text in named:
        assert text in errors[0]


def test_user_dictionary_lines_read_two_ways_are_warned_about(tmp_path):
    """Item 5: '云计算 abc n' became the word '云计算 abc' and README's 'Color OS'
    the word 'Color' with POS 'OS', without a word of warning."""
    words = tmp_path / "words.txt"
    words.write_text("云计算 abc n\n大数据 3 n extra\nColor OS\n鸿蒙系统\t5\tnz\n", encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("Color OS和鸿蒙系统都用云计算\n", encoding="utf-8")
    result = segment(text, "--user-dict", words)
    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert [line.split(": ")[0] for line in warnings] == [f"⚠ {words}:{n}" for n in (1, 2, 3)]
    assert "'Color'" in warnings[2] and "tabs" in warnings[2]
    assert "鸿蒙系统" in result.stdout.split() and "云计算" in result.stdout.split()


def test_user_dictionary_folder_is_not_called_missing(tmp_path):
    """Item 10: a folder given to --user-dict was reported as "not found"."""
    text = tmp_path / "in.txt"
    text.write_text(LINES[0] + "\n", encoding="utf-8")
    assert_refused(segment(text, "--user-dict", tmp_path), "is a folder, not a file", str(tmp_path))
