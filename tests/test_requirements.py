"""Installing spacy-cws or its pipeline package never replaces the user's torch (exact pins live in constraints.txt)."""
import importlib.metadata
import re

import pytest

from .conftest import REPO_ROOT

PINNED_ELSEWHERE = ("torch", "pytorch-crf", "opencc")


@pytest.mark.parametrize("distribution", ["spacy-cws", "zh_cws_gd"])
def test_no_exact_pin_of_torch_pytorch_crf_or_opencc(distribution):
    requirements = importlib.metadata.requires(distribution) or []
    names = {re.split(r"[ <>=!~;\[]", requirement, maxsplit=1)[0].lower(): requirement for requirement in requirements}
    assert "torch" in names or distribution == "zh_cws_gd"
    for name in PINNED_ELSEWHERE:
        if name in names:
            assert "==" not in names[name], names[name]


def test_constraints_file_pins_what_ci_installs():
    pins = dict(
        line.split("==") for line in (REPO_ROOT / "constraints.txt").read_text().splitlines() if "==" in line
    )
    assert pins["torch"] == "2.13.0" and pins["opencc"] == "1.4.2" and pins["pytorch-crf"] == "0.7.2"
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = next(line for line in ci.splitlines() if "pip install" in line)
    assert "-c constraints.txt" in install
    assert install.replace("python -m ", "").strip() in readme.replace("python -m ", "")
