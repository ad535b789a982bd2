"""scripts/ holds only what project.yml runs, and scripts/README.md names each with its command."""
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_every_script_is_run_by_a_project_command_named_in_the_readme():
    commands = yaml.safe_load((REPO_ROOT / "project.yml").read_text(encoding="utf-8"))["commands"]
    readme = (REPO_ROOT / "scripts" / "README.md").read_text(encoding="utf-8")
    for script in sorted((REPO_ROOT / "scripts").glob("*.py")):
        runners = [c["name"] for c in commands if any(f"scripts/{script.name}" in line for line in c["script"])]
        assert runners, f"no project.yml command runs scripts/{script.name}"
        row = next(line for line in readme.splitlines() if f"`{script.name}`" in line)
        assert all(f"`{name}`" in row for name in runners), script.name
