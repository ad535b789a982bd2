"""docs/reference/cli.md is what the commands' own help says (scripts/cli_reference.py writes it)."""
import subprocess
import sys

from ..conftest import REPO_ROOT

REFERENCE = REPO_ROOT / "docs" / "reference" / "cli.md"


def check(path):
    return subprocess.run(
        [sys.executable, "scripts/cli_reference.py", str(path), "--check"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )


def test_the_cli_reference_is_current():
    result = check(REFERENCE)
    assert result.returncode == 0, result.stderr


def test_a_stale_reference_is_refused(tmp_path):
    """The control: a reference missing a command's option fails the check."""
    stale = tmp_path / "cli.md"
    stale.write_text(REFERENCE.read_text(encoding="utf-8").replace("* `--probs`", "* `--old-option`"), encoding="utf-8")
    result = check(stale)
    assert result.returncode == 1 and "is stale" in result.stderr
