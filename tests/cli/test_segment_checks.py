"""``segment`` with the shipped small pipeline on bad or unusual input: one
message on stderr naming what to fix, no traceback, no text lost (issues 39
and 50)."""
import importlib.util
import json

import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

SHIPPED_SMALL = "zh_cws_gd_sm"
# Real sentences (CTB6-style news text) and what zh_cws_gd_sm makes of them.
LINES = ["今天天气很好", "新华社北京电", "上海浦东开发与法制建设同步"]


@pytest.fixture(scope="module", autouse=True)
def shipped_small():
    if importlib.util.find_spec(SHIPPED_SMALL) is None:
        pytest.skip(f"{SHIPPED_SMALL} is not installed: README's install command installs it from models/")


def segment(*args, input=None):
    """Run ``segment --model zh_cws_gd_sm``; RETURNS the click Result (stdout and stderr apart)."""
    return CliRunner().invoke(app, ["segment", "--model", SHIPPED_SMALL, *map(str, args)], input=input)


def assert_refused(result, *named):
    """One ✘ line on stderr naming each of ``named``, exit code 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith("✘")]
    assert len(errors) == 1, result.stderr
    for text in named:
        assert text in errors[0]


def test_user_dictionary_lines_read_two_ways_are_warned_about(tmp_path):
    """Item 5: '云计算 abc n' became the word '云计算 abc' and README's 'Color OS'
    the word 'Color' with POS 'OS', without a word of warning."""
    words = tmp_path / "words.txt"
    words.write_text("云计算 abc n\n大数据 3 n extra\nColor OS\n鸿蒙系统\t5\tnz\n", encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("Color OS和鸿蒙系统都用云计算\n", encoding="utf-8")
    result = segment(text, "--user-dict", words)
    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert [line.split(": ")[0] for line in warnings] == [f"⚠ {words}:{n}" for n in (1, 2, 3)]
    assert "'Color'" in warnings[2] and "tabs" in warnings[2]
    assert "鸿蒙系统" in result.stdout.split() and "云计算" in result.stdout.split()


def test_user_dictionary_folder_is_not_called_missing(tmp_path):
    """Item 10: a folder given to --user-dict was reported as "not found"."""
    text = tmp_path / "in.txt"
    text.write_text(LINES[0] + "\n", encoding="utf-8")
    assert_refused(segment(text, "--user-dict", tmp_path), "is a folder, not a file", str(tmp_path))


def write_input(path, lines, end="\n"):
    path.write_bytes("".join(line + end for line in lines).encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """An input of the three lines and its text output, from one uninterrupted run."""
    folder = tmp_path_factory.mktemp("finished")
    source = write_input(folder / "in.txt", LINES)
    result = segment(source, "-o", folder / "out.txt")
    assert result.exit_code == 0, result.output
    return source, (folder / "out.txt").read_bytes()


def test_resume_continues_a_valid_prefix(finished, tmp_path):
    source, complete = finished
    output = tmp_path / "out.txt"
    output.write_bytes(complete[: complete.index(b"\n") + 4])  # one line and a cut one
    result = segment(source, "-o", output, "--resume")
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == complete


@pytest.mark.parametrize(
    "existing,args,named",
    [
        # Item 4: a text run's output resumed with -f jsonl was kept and mixed with jsonl.
        (lambda complete: complete[: complete.index(b"\n") + 1], ["-f", "jsonl"], "line 1 of"),
        # An output with more lines than the input was kept as it was, exit 0.
        (lambda complete: complete * 3, [], "more complete lines than the input has lines (3)"),
        # Another input's output.
        (lambda complete: "中华 人民 共和国\n".encode("utf-8") + complete, [], "line 1 of"),
    ],
    ids=["other-format", "longer", "other-text"],
)
def test_resume_refuses_an_output_that_is_not_this_inputs(finished, tmp_path, existing, args, named):
    source, complete = finished
    output = tmp_path / "out.txt"
    output.write_bytes(existing(complete) + b"cut sho")
    before = output.read_bytes()
    assert_refused(segment(source, "-o", output, "--resume", *args), "Cannot resume", named)
    assert output.read_bytes() == before  # not even the cut line is removed


def test_resume_refuses_another_pipelines_output(tmp_path):
    """Issue 50, item 9: an output begun by zh_cws_gd_sm was continued by
    zh_cws_gd (the characters match); the run record beside it says which
    pipeline began it."""
    source = write_input(tmp_path / "in.txt", LINES)
    output = tmp_path / "out.txt"
    assert segment(source, "-o", output).exit_code == 0
    output.write_bytes(output.read_bytes()[:-3])  # the last line cut short
    before = output.read_bytes()
    result = segment(source, "-o", output, "--resume", "--model", "zh_cws_gd")
    assert_refused(result, "Cannot resume", "pipeline: zh_cws_gd_sm", "now zh_cws_gd 0.", "out.txt.segment.json")
    assert output.read_bytes() == before


def test_resume_checks_the_user_dictionary_by_its_words(tmp_path):
    """Issue 50, item 9: the user dictionary that began an output is recorded
    by its bytes and mode: a copy elsewhere continues it, other words do not."""
    source = write_input(tmp_path / "in.txt", LINES)
    words, copy, other = (write_input(tmp_path / name, [word]) for name, word in
                          (("words.txt", "浦东开发"), ("copy.txt", "浦东开发"), ("other.txt", "法制建设")))
    output = tmp_path / "out.txt"
    assert segment(source, "-o", output, "--user-dict", words).exit_code == 0
    complete = output.read_bytes()
    output.write_bytes(complete[: complete.index(b"\n") + 1])
    assert_refused(segment(source, "-o", output, "--resume"), "user dictionary: ", "words.txt", "now none")
    assert_refused(segment(source, "-o", output, "--resume", "--user-dict", other), "other.txt")
    result = segment(source, "-o", output, "--resume", "--user-dict", copy)
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == complete


def test_resume_of_an_output_without_run_record_is_warned_about(finished, tmp_path):
    """An output written to standard output, or by an older spacy-cws, has
    no run record: it is continued (its lines are checked) with a warning."""
    source, complete = finished
    output = tmp_path / "out.txt"
    output.write_bytes(complete[: complete.index(b"\n") + 1])
    result = segment(source, "-o", output, "--resume")
    assert result.exit_code == 0, result.output
    assert f"⚠ {output} has no run record" in result.stderr
    assert output.read_bytes() == complete and not (tmp_path / "out.txt.segment.json").exists()


@pytest.mark.parametrize("content", [b"{not json", b"[]"], ids=["not-json", "no-fields"])
def test_resume_refuses_a_run_record_it_cannot_read(finished, tmp_path, content):
    source, complete = finished
    output = tmp_path / "out.txt"
    output.write_bytes(complete[: complete.index(b"\n") + 1])
    (tmp_path / "out.txt.segment.json").write_bytes(content)
    assert_refused(segment(source, "-o", output, "--resume"), "Cannot resume", "out.txt.segment.json", "cannot be read")


def test_a_last_line_without_line_end_gets_none(finished, tmp_path):
    """Issue 50, item 10: the output of an input whose last line had no line
    end ended with one; where another input follows, the line still ends."""
    source, complete = finished
    unended = tmp_path / "unended.txt"
    unended.write_bytes(source.read_bytes()[:-1])
    assert segment(unended).stdout_bytes == complete[:-1]
    assert segment(unended, unended).stdout_bytes == complete + complete[:-1]
    output = tmp_path / "out.txt"
    output.write_bytes(complete[:-1])  # a finished output: its last line is segmented again
    result = segment(unended, "-o", output, "--resume")
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == complete[:-1]


def test_empty_user_dictionary_is_warned_about(tmp_path):
    """Issue 50, item 10: an empty --user-dict file was taken without a word."""
    source = write_input(tmp_path / "in.txt", LINES)
    words = tmp_path / "words.txt"
    words.write_bytes(b"\n\n")
    result = segment(source, "--user-dict", words)
    assert result.exit_code == 0, result.output
    assert f"⚠ {words} holds no words" in result.stderr
    assert result.stdout == segment(source).stdout


def test_crlf_lines_keep_their_line_ends_and_jsonl_text(tmp_path):
    """Item 8: CRLF input came out with LF line ends; each output line now
    ends as its input line did, and "text" is the line without its line end."""
    source = tmp_path / "in.txt"
    source.write_bytes(f"{LINES[0]}\r\n{LINES[1]}\n{LINES[2]}\r\n".encode("utf-8"))
    text = segment(source)  # (click's Result.stdout turns "\r\n" into "\n": stdout_bytes has what was written)
    assert text.exit_code == 0, text.output
    lf = write_input(tmp_path / "lf.txt", LINES)
    first, second, third, end = segment(lf).stdout.split("\n")
    assert text.stdout_bytes.decode("utf-8").split("\n") == [first + "\r", second, third + "\r", end]
    records = segment(source, "-f", "jsonl").stdout_bytes.decode("utf-8")
    assert records.count("\r\n") == 2
    for line, record in zip(LINES, map(json.loads, records.split("\n")[:-1])):
        assert record["text"] == line
        assert [line[start:end] for start, end in record["offsets"]] == record["words"]
    assert records.replace("\r\n", "\n") == segment(lf, "-f", "jsonl").stdout


def test_lone_carriage_returns_are_said(tmp_path):
    """Item 8: a file with old Mac (lone CR) line ends came out as one line
    without a word; it still is one line (a lone CR is whitespace inside a
    line), and stderr says so, naming the file and line."""
    source = write_input(tmp_path / "mac.txt", LINES, end="\r")
    result = segment(source, "-f", "jsonl")
    assert result.exit_code == 0, result.output
    [record] = map(json.loads, result.stdout.splitlines())
    assert record["text"] == "\r".join(LINES) + "\r"
    assert "".join(record["words"]) == "".join(LINES)
    assert f"⚠ {source}, line 1: a carriage return" in result.stderr and "tr '\\r' '\\n'" in result.stderr


def test_lone_surrogate_in_jsonl_names_its_line_and_keeps_the_others(tmp_path):
    """Item 7: '"\\ud83d好"' in a jsonl input lost every line, with a traceback."""
    source = tmp_path / "in.jsonl"
    source.write_text(
        f'{{"text": "{LINES[0]}"}}\n{{"text": "\\ud83d好"}}\n{{"text": "{LINES[1]}"}}\n', encoding="utf-8"
    )
    output = tmp_path / "out.txt"
    result = segment(source, "--input-format", "jsonl", "-o", output)
    assert_refused(result, "in.jsonl, line 2", "lone surrogate \\ud83d", "--resume")
    assert [line.replace(" ", "") for line in output.read_text(encoding="utf-8").splitlines()] == [LINES[0]]
    source.write_text(source.read_text(encoding="utf-8").replace("\\ud83d", "\\ud83d\\ude00"), encoding="utf-8")
    result = segment(source, "--input-format", "jsonl", "-o", output, "--resume")
    assert result.exit_code == 0, result.output
    assert [line.replace(" ", "") for line in output.read_text(encoding="utf-8").splitlines()] == [
        LINES[0], "😀好", LINES[1]
    ]


def test_bad_line_stops_the_run_after_the_lines_before_it(tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(f"{LINES[0]}\n{LINES[1]}\n".encode("utf-8") + "坏".encode("gbk") + b"\n")
    output = tmp_path / "out.txt"
    assert_refused(segment(source, "-o", output), "in.txt, line 3: not valid UTF-8")
    assert [line.replace(" ", "") for line in output.read_text(encoding="utf-8").splitlines()] == LINES[:2]


@pytest.mark.parametrize("device", ["/dev/full", "/proc/version"])
def test_unwritable_output_is_a_message(tmp_path, device):
    """Item 7: a full disk, or a file that takes no writes, gave a traceback."""
    source = write_input(tmp_path / "in.txt", LINES)
    assert_refused(segment(source, "-o", device), f"Cannot write the output file {device}")


def test_max_line_chars(tmp_path):
    """Item 10: a line over the pipeline's max_length stopped the run with no
    way to raise the limit; --max-line-chars sets it, and the error names it."""
    source = write_input(tmp_path / "in.txt", [LINES[0], LINES[2]])  # 6 and 13 characters
    assert_refused(segment(source, "--max-line-chars", "10"), "line 2: 13 characters", "--max-line-chars (10")
    result = segment(source, "--max-line-chars", "13")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2
    long = write_input(tmp_path / "long.txt", ["数" * 1_000_001])
    assert_refused(segment(long), "line 1: 1,000,001 characters", "--max-line-chars (1,000,000")
