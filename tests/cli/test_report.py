"""``python -m spacy_cws report``: the HTML page, its plots, and bad input."""
import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

from ..scoring.test_error_analysis import ctb6_files  # noqa: F401 (fixture)

pytest.importorskip("matplotlib", reason="report needs the 'report' extra (matplotlib)")


def report(*args):
    return CliRunner().invoke(app, ["report", *map(str, args)])


def test_two_systems_side_by_side(ctb6_files, tmp_path):  # noqa: F811
    folder = ctb6_files
    result = report(
        folder / "gold.txt", folder / "jieba.txt", folder / "gold.txt", "--train-words", folder / "words.txt",
        "-o", tmp_path / "out", "--name", "jieba", "--name", "perfect",
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<th>jieba</th><th>perfect</th>" in page
    assert "<tr><th>F1</th>" in page and "<td class=n>1.0000</td>" in page
    pngs = sorted(path.name for path in (tmp_path / "out").glob("*.png"))
    assert len(pngs) == 4
    for name in pngs:
        assert f'src="{name}"' in page
        assert (tmp_path / "out" / name).read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "extra, message",
    [(["--name", "a"], "2 system files"), (["--name", "a", "--name", "a"], "must differ")],
)
def test_names_must_match_the_systems(ctb6_files, tmp_path, extra, message):  # noqa: F811
    folder = ctb6_files
    result = report(
        folder / "gold.txt", folder / "jieba.txt", folder / "gold.txt", "--train-words", folder / "words.txt",
        "-o", tmp_path, *extra,
    )
    assert result.exit_code == 1 and message in result.stderr and not result.stdout


def test_missing_system_file_is_named(ctb6_files, tmp_path):  # noqa: F811
    result = report(
        ctb6_files / "gold.txt", tmp_path / "nope.txt", "--train-words", ctb6_files / "words.txt", "-o", tmp_path
    )
    assert result.exit_code == 1 and "System file not found" in result.stderr
