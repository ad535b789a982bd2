"""``python -m spacy_cws segment``: formats, line handling, inputs, outputs and errors."""
import json

import numpy
import pytest
import spacy
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.cli import segment as segment_module
from spacy_cws.segmenter.gap_probs_extension import ScoredText
from spacy_cws.segmenter.segmenter_tokenizer import segmenter_as_tokenizer
from spacy_cws.streaming import formats
from spacy_cws.streaming.pipeline import sole_segmenter
from spacy_cws.streaming.segmentation import segment_lines, words_of_doc

from ..segmentation_data import SENTENCES

# Lines that break naive line handling or offset arithmetic.
ADVERSARIAL = [
    "",
    "   ",
    "\t",
    "  新华社北京二月十二日电  ",
    "\t今天天气很好\t！ ",
    "上海\u3000浦东\u3000\u3000开发与法制建设同步",
    "😀我们去公园散步吧👍🏽",
    "他在2009年买了一部iPhone手机，售价5999元。abc 123",
    "国务院批准了\u2028十四个边境城市\x85为对外开放城市\x1c。",
    "记者从有关部门了解到这一消息\ufeff。",
]
# Longer than the model's max_length (64): cut into model sequences and reassembled.
LONG_LINE = ("中国经济保持平稳增长，增幅达到３．５％。" * 250)[:5000]


def segment(model, *args, input=None):
    """Run the command; RETURNS the click Result (stdout and stderr apart)."""
    return CliRunner().invoke(app, ["segment", "--model", str(model), *args], input=input)


def write_lines(path, lines):
    """Write ``lines``, each ended by "\n" (so a final "" is a last, empty line)."""
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def model_paths(trained_nlp, tmp_path_factory):
    """The tiny pipeline saved in both shapes: with the component, and as the tokenizer."""
    folder = tmp_path_factory.mktemp("pipelines")
    trained_nlp.to_disk(folder / "component")
    segmenter_as_tokenizer(trained_nlp).to_disk(folder / "tokenizer")
    return {"component": folder / "component", "tokenizer": folder / "tokenizer"}


@pytest.fixture(scope="module")
def model_path(model_paths):
    return model_paths["component"]


@pytest.fixture(scope="module")
def adversarial_file(tmp_path_factory):
    return write_lines(tmp_path_factory.mktemp("input") / "adversarial.txt", ADVERSARIAL + [LONG_LINE])


@pytest.fixture(scope="module")
def jsonl_outputs(model_paths, adversarial_file):
    """--format jsonl of the adversarial lines by each shape (the component with
    small batches, so that batching is exercised too)."""
    outputs = {}
    for shape, batch_size in (("component", "3"), ("tokenizer", "256")):
        result = segment(model_paths[shape], str(adversarial_file), "--format", "jsonl", "--batch-size", batch_size)
        assert result.exit_code == 0, result.output
        outputs[shape] = result.stdout
    return outputs


def test_text_format_one_line_per_input_line(model_path, tmp_path):
    lines = ["".join(SENTENCES[0].split()), "", "   ", "\t\u3000", "".join(SENTENCES[2].split()), ""]
    result = segment(model_path, str(write_lines(tmp_path / "in.txt", lines)))
    assert result.exit_code == 0, result.output
    # The overfitted model gives back the gold segmentation of its training sentences.
    assert result.stdout == f"{SENTENCES[0]}\n\n\n\n{SENTENCES[2]}\n\n"


def test_text_format_is_the_jsonl_words(model_path, adversarial_file, jsonl_outputs):
    result = segment(model_path, str(adversarial_file))
    assert result.exit_code == 0, result.output
    words = [json.loads(line)["words"] for line in jsonl_outputs["component"].split("\n")[:-1]]
    assert result.stdout == "".join(" ".join(line_words) + "\n" for line_words in words)


def test_line_ends(model_path, tmp_path):
    # Only \n and \r\n end lines; a lone \r (issue 19, item 5), \v, \f, U+2028,
    # U+0085 and U+001C do not, though str.splitlines would split there.
    path = tmp_path / "in.txt"
    path.write_bytes("a\r\nb\rc\n\r\n\rd\u2028e\x85f\x1cg\vh\fi\r".encode("utf-8"))
    result = segment(model_path, str(path), "--format", "jsonl")
    assert result.exit_code == 0, result.output
    texts = [json.loads(line)["text"] for line in result.stdout.split("\n")]  # the last line has no line end
    assert texts == ["a", "b\rc", "", "\rd\u2028e\x85f\x1cg\vh\fi\r"]


def test_lone_carriage_return_stays_inside_its_line(model_path, tmp_path):
    """Issue 19, item 5: one output line per input line, also with a lone \r."""
    lines = ["".join(SENTENCES[0].split()) + "\r" + "".join(SENTENCES[2].split()), "".join(SENTENCES[1].split()) + "\r"]
    result = segment(model_path, str(write_lines(tmp_path / "in.txt", lines)))
    assert result.exit_code == 0, result.output
    first, second, end = result.stdout.split("\n")
    assert end == "" and "".join(second.split()) == lines[1][:-1]
    # The lone \r is whitespace inside the first line: a word boundary there, and the
    # words (whatever this tiny model makes of the joined context) hold both sentences.
    words = first.split(" ")
    assert "".join(words) == lines[0].replace("\r", "")
    assert "".join(SENTENCES[0].split()) in {"".join(words[:k]) for k in range(len(words) + 1)}


@pytest.mark.parametrize("shape", ["component", "tokenizer"])
def test_jsonl_offsets_rebuild_every_line(jsonl_outputs, shape):
    # str.splitlines splits at U+2028 and U+0085 too: the records must escape them.
    records = [json.loads(line) for line in jsonl_outputs[shape].splitlines()]
    assert [record["text"] for record in records] == ADVERSARIAL + [LONG_LINE]
    for record in records:
        text, words, offsets = record["text"], record["words"], record["offsets"]
        assert len(words) == len(offsets)
        rebuilt, position = [], 0
        for word, (start, end) in zip(words, offsets):
            assert word and text[start:end] == word and not any(c.isspace() for c in word)
            gap = text[position:start]
            assert all(c.isspace() for c in gap), (gap, text)
            rebuilt.extend((gap, word))
            position = end
        assert all(c.isspace() for c in text[position:])
        rebuilt.append(text[position:])
        assert "".join(rebuilt) == text
    assert len(records[-1]["words"]) > 100


def test_both_pipeline_shapes_give_the_same_words(model_paths, jsonl_outputs):
    assert spacy.load(model_paths["tokenizer"]).pipe_names == []  # really the tokenizer shape
    assert jsonl_outputs["component"] == jsonl_outputs["tokenizer"]


@pytest.mark.parametrize("shape", ["component", "tokenizer"])
def test_words_without_docs_are_the_docs_words(model_paths, shape):
    """A pipeline that only segments skips Doc building: its words equal those
    of the Docs nlp.pipe makes, on the adversarial lines and the long line."""
    nlp = spacy.load(model_paths[shape])
    segmenter = sole_segmenter(nlp)
    assert segmenter is not None
    texts = ADVERSARIAL + [LONG_LINE]
    direct = list(segment_lines(nlp, texts, batch_size=4))
    from_docs = [words_of_doc(doc) for doc in nlp.pipe(texts, batch_size=4)]
    assert [text for text, _ in direct] == texts
    for (text, words), (doc_text, doc_words) in zip(direct, from_docs):
        assert text == doc_text and words.dtype == doc_words.dtype and words.tolist() == doc_words.tolist()
    assert sum(len(words) for _, words in direct) > 100


@pytest.mark.parametrize("block", [1, 3, 16384])
def test_formats_written_in_blocks_equal_the_whole_line(model_path, monkeypatch, block):
    """Lines formatted FORMAT_BLOCK words at a time are those of one json.dumps
    and one join over all the words."""
    monkeypatch.setattr(formats, "FORMAT_BLOCK", block)
    nlp = spacy.load(model_path)
    for text, words in segment_lines(nlp, ADVERSARIAL + [LONG_LINE], batch_size=8):
        offsets = words.tolist()
        record = {"text": text, "words": [text[start:end] for start, end in offsets], "offsets": offsets}
        whole = json.dumps(record, ensure_ascii=False)
        for separator in "\x85\u2028\u2029":
            whole = whole.replace(separator, f"\\u{ord(separator):04x}")
        assert formats.format_jsonl((text, words)) == whole
        assert formats.format_text((text, words)) == " ".join(record["words"])


def test_gap_probs_print_as_the_float32_they_are():
    """Issue 50, item 10: --probs rounded to 4 decimals, so six gaps of a
    1M-character line printed as 0.5 and their order was lost."""
    probs = numpy.float32(0.5) + numpy.arange(-3, 3, dtype=numpy.float32) * numpy.float32(1e-6)
    probs = numpy.concatenate([probs, numpy.array([0.0, 1e-9, 0.99999994, 1.0], dtype=numpy.float32)])
    text = "中" * (len(probs) + 1)
    words = numpy.array([[i, i + 1] for i in range(len(text))], dtype=numpy.int64)
    record = json.loads(formats.format_jsonl_probs(ScoredText.of(text, words, probs)))
    numpy.testing.assert_array_equal(numpy.array(record["gap_probs"], dtype=numpy.float32), probs)


def test_a_pipeline_with_more_components_runs_nlp_pipe(model_path):
    nlp = spacy.load(model_path)
    nlp.add_pipe("sentencizer")
    assert sole_segmenter(nlp) is None
    text = "".join(SENTENCES[0].split()) + "。" + "".join(SENTENCES[2].split())
    [(words_text, words)] = segment_lines(nlp, [text], batch_size=8)
    doc = nlp(text)
    assert words_text == text and [text[start:end] for start, end in words.tolist()] == [t.text for t in doc]


def test_stdin(model_path):
    data = "".join(SENTENCES[1].split()) + "\r\n\n" + "".join(SENTENCES[3].split())
    for args in ([], ["-"]):
        result = segment(model_path, *args, input=data.encode("utf-8"))
        assert result.exit_code == 0, result.output
        # Each output line ends as its input line did, a last line without one with none
        # (issue 50, item 10; stdout_bytes: click's Result.stdout turns "\r\n" into "\n").
        assert result.stdout_bytes.decode("utf-8") == f"{SENTENCES[1]}\r\n\n{SENTENCES[3]}"


def test_files_in_order_with_stdin(model_path, tmp_path):
    first = write_lines(tmp_path / "a.txt", ["".join(SENTENCES[4].split()), ""])
    second = write_lines(tmp_path / "b.txt", ["".join(SENTENCES[5].split())])
    stdin = "".join(SENTENCES[6].split()).encode("utf-8")
    result = segment(model_path, str(second), "-", str(first), input=stdin)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{SENTENCES[5]}\n{SENTENCES[6]}\n{SENTENCES[4]}\n\n"


def test_bom_is_dropped_at_the_start_of_each_file(model_path, tmp_path):
    first = tmp_path / "a.txt"
    first.write_bytes(b"\xef\xbb\xbf" + "".join(SENTENCES[0].split()).encode("utf-8"))
    second = tmp_path / "b.txt"
    second.write_bytes(b"\xef\xbb\xbf\n" + "".join(SENTENCES[7].split()).encode("utf-8"))
    result = segment(model_path, str(first), str(second), "--format", "jsonl")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["text"] for record in records] == ["".join(SENTENCES[0].split()), "", "".join(SENTENCES[7].split())]
    assert [" ".join(record["words"]) for record in records] == [SENTENCES[0], "", SENTENCES[7]]


def test_output_file(model_path, tmp_path):
    path = write_lines(tmp_path / "in.txt", ADVERSARIAL)
    output = tmp_path / "out" / "segmented.txt"
    result = segment(model_path, str(path), "--output", str(output))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert output.read_bytes() == segment(model_path, str(path)).stdout_bytes


def test_output_may_not_be_an_input(model_path, tmp_path):
    path = write_lines(tmp_path / "in.txt", ["数据"])
    result = segment(model_path, str(path), "--output", str(path))
    assert result.exit_code != 0
    assert "is also an input" in result.stderr
    assert path.read_text(encoding="utf-8") == "数据\n"


@pytest.mark.parametrize("terminal", [True, False])
def test_progress_bar_only_on_a_terminal(model_path, tmp_path, monkeypatch, terminal):
    monkeypatch.setattr(segment_module, "stderr_is_terminal", lambda: terminal)
    result = segment(model_path, str(write_lines(tmp_path / "in.txt", [" " * 99] * 10)))
    assert result.exit_code == 0, result.output
    assert result.stdout == "\n" * 10
    assert ("segment: 100%" in result.stderr) == terminal


def test_missing_input_file(model_path, tmp_path):
    present = write_lines(tmp_path / "present.txt", ["数据"])
    result = segment(model_path, str(present), str(tmp_path / "absent.txt"))
    assert result.exit_code != 0
    assert "absent.txt" in result.stderr
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback


@pytest.mark.parametrize(
    "data,line",
    [(b"ok\n\xff\xfe bad\nok\n", 2), (b"ok\r\n\r\xe4\xb8\n", 2), (b"\xef\xbb\xbfok\r\n\x80", 2)],
)
def test_bad_utf8_names_file_and_line(model_path, tmp_path, data, line):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    result = segment(model_path, str(path))
    assert result.exit_code != 0
    assert f"bad.txt, line {line}: not valid UTF-8" in result.stderr
    assert isinstance(result.exception, SystemExit)


def test_line_longer_than_max_length(model_path, tmp_path, monkeypatch):
    load = spacy.load

    def load_short(name):
        nlp = load(name)
        nlp.max_length = 10
        return nlp

    monkeypatch.setattr(spacy, "load", load_short)
    path = write_lines(tmp_path / "long.txt", ["短句", "这一行有十二个汉字长啊啊"])
    result = segment(model_path, str(path))
    assert result.exit_code != 0
    assert "long.txt, line 2: 12 characters" in result.stderr


def test_missing_model(tmp_path):
    result = segment(tmp_path / "no-such-model", input=b"abc")
    assert result.exit_code != 0
    assert "no-such-model" in result.stderr
    assert "spacy project run all" in result.stderr
    assert isinstance(result.exception, SystemExit)
