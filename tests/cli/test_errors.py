"""Every command reports bad input on stderr, with exit code 1 and no
traceback, naming what to fix (issue 19, item 6 and the CLI audit)."""
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from spacy_cws.cli import app


def _bad_inputs(tmp_path):
    """Per command: arguments with one realistic mistake, and the text the error must name."""
    folder = tmp_path / "corpus_folder"
    folder.mkdir()
    gbk = tmp_path / "gbk.txt"
    gbk.write_bytes("中国 人民\n".encode("gbk"))
    utf8 = tmp_path / "utf8.txt"
    utf8.write_text("中国 人民\n", encoding="utf-8")
    not_json = tmp_path / "metrics.json"
    not_json.write_text("{precision: 0.9", encoding="utf-8")
    absent = str(tmp_path / "absent")
    out = str(tmp_path / "out")
    return {
        "adapt": (["zh_cws_gd_sm", str(gbk), "--output", out], "gbk.txt:1: not UTF-8"),
        "add-charlm": (["zh_cws_gd_sm", absent, out], "absent is not a character LM folder"),
        "add-criterion": ([absent, out, "zx"], "absent"),
        "average-weights": ([absent, str(folder), out], "no weight checkpoints"),
        "configure": ([absent, out, "--criterion", "zx"], "absent"),
        "convert": ([str(folder), f"{out}.spacy"], "is a folder, not a file"),
        "convert-ner": ([str(gbk), f"{out}.spacy"], "gbk.txt:1: not UTF-8"),
        "convert-pos": ([absent, out], "Input file not found"),
        "convert-sentiment": ([absent, f"{out}.spacy"], "absent"),
        "ensemble-segment": ([f"zh_cws_gd_sm,{absent}", str(utf8), "-o", out], "absent"),
        "evaluate": ([absent, str(folder), "-o", out, "--system-output", out], "run the prepare command first"),
        "export-onnx": ([absent, out], "absent"),
        "fetch": (["no-such-corpus", "--assets", out], "no-such-corpus"),
        "half-precision": ([absent, out], "absent"),
        "join-corpora": ([out, str(folder)], "train.spacy is missing"),
        "model-meta": (["ctb6", str(not_json), out], "is not valid JSON"),
        "ngram-vectors": ([out, absent], "absent not found"),
        "prepare": (["ctb6", str(folder), out], "Missing train file"),
        "pretrain-charlm": ([out, absent], "absent not found"),
        "report": ([str(utf8), absent, "--train-words", str(utf8), "-o", out], "absent"),
        "score": ([str(utf8), str(gbk), "--train-words", absent], "gbk.txt:1: not valid UTF-8"),
        "segment": ([str(folder / "absent.txt")], "absent.txt"),
        "teacher-corpus": ([absent, f"{out}.spacy", absent], "absent not found"),
        "to-tokenizer": ([absent, out], "absent"),
        "train": ([absent, "--output", out], "absent does not exist"),
    }


COMMANDS = [
    "adapt", "add-charlm", "add-criterion", "average-weights", "configure", "convert", "convert-ner", "convert-pos",
    "convert-sentiment", "ensemble-segment", "evaluate", "export-onnx", "fetch", "half-precision", "join-corpora",
    "model-meta", "ngram-vectors", "prepare", "pretrain-charlm", "report", "score", "segment", "teacher-corpus",
    "to-tokenizer", "train",
]


def test_every_command_is_checked(tmp_path):
    assert sorted(_bad_inputs(tmp_path)) == COMMANDS == sorted(get_command(app).commands)


@pytest.mark.parametrize("command", COMMANDS)
def test_error_goes_to_stderr_with_exit_code_1(tmp_path, command):
    args, named = _bad_inputs(tmp_path)[command]
    result = CliRunner().invoke(app, [command, *args])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr
    assert named not in result.stdout and "✘" not in result.stdout
