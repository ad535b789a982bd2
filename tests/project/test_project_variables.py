"""project.yml's commands keep their steps and files once weasel substitutes the variables."""
from pathlib import Path

import yaml
from weasel.util import load_project_config

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_every_command_keeps_its_steps_deps_and_outputs_after_substitution():
    """confection, which substitutes ``${vars.*}``, joins a list item that
    begins with a variable to the item before it ("python -m venv V, V/bin/python
    -m pip ..."): the two steps would run as one broken command."""
    raw = {c["name"]: c for c in yaml.safe_load((REPO_ROOT / "project.yml").read_text(encoding="utf-8"))["commands"]}
    loaded = load_project_config(REPO_ROOT)
    for command in loaded["commands"]:
        for key in ("script", "deps", "outputs", "outputs_no_cache"):
            assert len(command.get(key, [])) == len(raw[command["name"]].get(key, [])), (command["name"], key)
