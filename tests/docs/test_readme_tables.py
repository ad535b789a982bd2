"""README's benchmark tables are what scripts/render_readme_tables.py renders from metrics/benchmark.json."""
import json
import shutil
import subprocess
import sys

import pytest

from ..conftest import REPO_ROOT

BENCHMARK = REPO_ROOT / "metrics" / "benchmark.json"
READMES = [REPO_ROOT / "README.md", REPO_ROOT / "README.zh-CN.md"]


def render(benchmark, *readmes, check=True):
    command = [sys.executable, "scripts/render_readme_tables.py", str(benchmark), *map(str, readmes)]
    return subprocess.run(command + (["--check"] if check else []), cwd=REPO_ROOT, capture_output=True, text=True)


def test_the_readme_tables_are_what_the_benchmark_file_renders():
    result = render(BENCHMARK, *READMES)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("readme", READMES, ids=lambda path: path.name)
def test_the_readmes_hold_at_most_120_lines(readme):
    assert len(readme.read_text(encoding="utf-8").splitlines()) <= 120


def test_a_table_edited_by_hand_is_refused_then_rewritten(tmp_path):
    """The control: README with one row of its test-set table changed fails the check; rendering restores it."""
    readme = tmp_path / "README.md"
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    row = text.split("<!-- benchmark:test-sets -->\n")[1].splitlines()[2]  # zh_cws_gd's F1
    cells = row.split(" | ")
    readme.write_text(text.replace(row, " | ".join([cells[0], "99.99", *cells[2:]])), encoding="utf-8")
    result = render(BENCHMARK, readme)
    assert result.returncode == 1 and f"{readme} is stale" in result.stderr
    assert render(BENCHMARK, readme, check=False).returncode == 0
    assert readme.read_text(encoding="utf-8") == text


def test_a_new_figure_in_the_benchmark_file_makes_the_readmes_stale(tmp_path):
    data = json.loads(BENCHMARK.read_text(encoding="utf-8"))
    data["peers"]["zh_cws_gd_sm"]["test_sets"]["ctb6"]["chars_per_second"] += 1000
    changed = tmp_path / "benchmark.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    for readme in READMES:
        result = render(changed, readme)
        assert result.returncode == 1 and "is stale" in result.stderr, readme.name


def test_a_readme_without_the_markers_is_a_clear_error(tmp_path):
    readme = tmp_path / "README.zh-CN.md"
    shutil.copy(REPO_ROOT / "README.zh-CN.md", readme)
    readme.write_text(readme.read_text(encoding="utf-8").replace("<!-- /benchmark:choose -->", ""), encoding="utf-8")
    result = render(BENCHMARK, readme)
    assert result.returncode == 1
    assert result.stderr.strip() == f"{readme}: no '<!-- benchmark:choose -->' ... '<!-- /benchmark:choose -->' block"
