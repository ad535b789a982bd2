"""Calling ``python -m spacy_cws`` commands in process (typer's CliRunner), for the CLI tests."""
from typer.testing import CliRunner

from spacy_cws.cli import app


def invoke(*args):
    """The result of the command line ``args`` (each passed as str)."""
    return CliRunner().invoke(app, [str(arg) for arg in args])


def invoke_ok(*args):
    """``invoke``, asserting that the command succeeded (exit code 0)."""
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result
