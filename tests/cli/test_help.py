"""Each command's --help starts with a one-line summary, the line the command list shows."""
import inspect

from typer.testing import CliRunner

from spacy_cws.cli import app


def summaries():
    return {
        command.name: inspect.cleandoc(command.callback.__doc__).split("\n\n")[0] for command in app.registered_commands
    }


def test_every_command_has_a_one_line_summary():
    for name, summary in summaries().items():
        assert "\n" not in summary and len(summary) <= 90, name
        assert summary.endswith("."), name


def test_the_command_list_shows_the_summaries_whole():
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    for name, summary in summaries().items():
        assert any(name in line and summary in line for line in result.output.splitlines()), name


def test_user_dict_help_states_the_format_whole():
    """Issue 39, item 5: rich took "[freq]" in "word [freq] [POS]" for markup, so
    --help showed "word  [POS]" while README said "word [freq] [POS]"."""
    for command in ("segment", "evaluate"):
        result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
        assert result.exit_code == 0
        [line] = [line for line in result.output.splitlines() if "--user-dict " in line]
        assert "frequency" in line and "POS tag" in line and "tabs" in line and "Color OS<TAB>5<TAB>nz" in line
