"""Every command the docs show names a file, a `python -m spacy_cws` command and
a `spacy project run` command that exist: a reader can run what they read."""
import re
from pathlib import Path

import pytest
import srsly
import typer.main

from spacy_cws.cli import app
from spacy_cws.segmenter.moved_settings import MOVED_SETTINGS

from ..conftest import REPO_ROOT

DOCUMENTS = sorted(
    [*REPO_ROOT.glob("*.md"), *(REPO_ROOT / "docs").rglob("*.md"), *REPO_ROOT.glob("benchmarks/*.md"),
     *REPO_ROOT.glob("scripts/*.md")]
)
# Fenced blocks and inline code spans: where commands are written.
CODE = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`", re.S)
# A path into the tree; one after ":" is a git object (`git show COMMIT:PATH`),
# and an upper-case name (configs/CONFIG.cfg) a placeholder.
TREE_PATH = re.compile(
    r"(?<![\w/.:-])((?:scripts|benchmarks|configs|\.ci)/(?:[\w.-]+/)*(?![A-Z_]+\.)[\w.-]+\.(?:py|cfg))"
)
SUBCOMMAND = re.compile(r"python -m spacy_cws ([a-z][a-z0-9-]*)")
PROJECT_COMMAND = re.compile(r"spacy project run ([a-z][\w-]*)")


def code_lines(document: Path):
    text = document.read_text(encoding="utf-8")
    for block, span in CODE.findall(text):
        yield from (block or span).splitlines()


def documented(pattern: re.Pattern):
    return sorted({(document.relative_to(REPO_ROOT).as_posix(), match)
                   for document in DOCUMENTS for line in code_lines(document) for match in pattern.findall(line)})


def test_the_documents_show_commands_at_all():
    """The control: the patterns find README's and the guides' commands."""
    assert ("README.md", "segment") in documented(SUBCOMMAND)
    assert any(path.startswith("benchmarks/") for _, path in documented(TREE_PATH))
    assert ("README.md", "all") in documented(PROJECT_COMMAND)


@pytest.mark.parametrize("document,path", documented(TREE_PATH))
def test_every_documented_path_exists(document, path):
    assert (REPO_ROOT / path).exists(), f"{document} names {path}, which is not in the tree"


def test_every_documented_spacy_cws_command_exists():
    commands = set(typer.main.get_command(app).commands)
    missing = [(document, name) for document, name in documented(SUBCOMMAND) if name not in commands]
    assert not missing, f"commands the docs show that `python -m spacy_cws` lacks: {missing}"


def test_every_documented_project_command_exists():
    project = srsly.read_yaml(REPO_ROOT / "project.yml")
    names = {command["name"] for command in project["commands"]} | set(project.get("workflows", {}))
    missing = [(document, name) for document, name in documented(PROJECT_COMMAND) if name not in names]
    assert not missing, f"project commands the docs show that project.yml lacks: {missing}"


def test_no_documented_command_sets_a_moved_setting_on_the_component():
    """Overrides name where a setting lives now (spacy_cws/segmenter/moved_settings.py): the training-only
    ones under [initialize.components.gd_segmenter], the export and precision ones not in a config at all."""
    moved = re.compile(r"(?<!initialize\.)components\.gd_segmenter\.(" + "|".join(MOVED_SETTINGS) + r")\b")
    project = [("project.yml", match) for line in (REPO_ROOT / "project.yml").read_text(encoding="utf-8").splitlines()
               for match in moved.findall(line)]
    found = documented(moved) + project
    assert not found, f"commands that set a moved gd_segmenter setting: {found}"
