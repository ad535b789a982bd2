"""A user's install of spacy-cws or its pipeline packages needs no torch and
never replaces the user's torch (exact pins live in constraints.txt)."""
import importlib.metadata
import re

import pytest

from .conftest import REPO_ROOT

PINNED_ELSEWHERE = ("torch", "pytorch-crf", "opencc")


@pytest.mark.parametrize("distribution", ["spacy-cws", "zh_cws_gd", "zh_cws_gd_sm"])
def test_no_torch_for_users_and_no_exact_pin_of_torch_pytorch_crf_or_opencc(distribution):
    requirements = importlib.metadata.requires(distribution) or []
    for requirement in requirements:
        name, _, marker = requirement.partition(";")
        project = re.split(r"[ <>=!~\[]", name.strip(), maxsplit=1)[0].lower()
        if project in PINNED_ELSEWHERE:
            assert "==" not in name, requirement
        if project in ("torch", "pytorch-crf"):  # only an extra (train, export) brings them
            assert "extra ==" in marker, requirement


def test_constraints_file_pins_what_ci_installs():
    pins = dict(
        line.split("==") for line in (REPO_ROOT / "constraints.txt").read_text().splitlines() if "==" in line
    )
    assert pins["torch"] == "2.13.0" and pins["opencc"] == "1.4.2" and pins["pytorch-crf"] == "0.7.2"
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installs = [line for line in ci.splitlines() if "pip install" in line]
    assert len(installs) == 2  # a user's (in a venv without torch), then the developer's
    for install in installs:
        assert "-c constraints.txt" in install
        command = (
            re.sub(r'^"\$user_venv/bin/python" -m ', "", install).replace("python -m ", "").replace(" -q", "").strip()
        )
        assert command in readme.replace("python -m ", "")
