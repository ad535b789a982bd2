"""``segment --tags`` and jsonl's "tags": words with their PKU tags from a pipeline that tags."""
import json

import pytest
import spacy
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.streaming.pipeline import sole_segmenter, without_tagging
from spacy_cws.tagging import TAGGING_COMPONENTS
from spacy_cws.tagging.pku_upos import pku_upos

from ..conftest import shipped_pipeline

LINES = [
    "新华社北京一月三十日电  记者从国务院了解到这一消息。",
    "",
    "他在2009年买了一部iPhone手机，售价5999元。",
    "   ",
    "中国经济保持平稳增长。",
]


@pytest.fixture(scope="module")
def tagging_pipeline():
    """zh_cws_gd_sm as shipped: its tagger (PFR's PKU tags) behind the segmenter."""
    nlp = shipped_pipeline("zh_cws_gd_sm")
    assert "tagger" in nlp.pipe_names
    return "zh_cws_gd_sm"


def segment(model, *args, input=None):
    return CliRunner().invoke(app, ["segment", "--model", str(model), *args], input=input)


def test_tags_follow_the_same_words_as_without_them(tagging_pipeline):
    plain = segment(tagging_pipeline, input="\n".join(LINES) + "\n")
    tagged = segment(tagging_pipeline, "--tags", input="\n".join(LINES) + "\n")
    assert plain.exit_code == 0 and tagged.exit_code == 0, plain.stderr + tagged.stderr
    tagset = set(pku_upos())
    plain_lines, tagged_lines = plain.stdout.split("\n"), tagged.stdout.split("\n")
    assert len(tagged_lines) == len(plain_lines) == len(LINES) + 1
    for words_line, tagged_line in zip(plain_lines, tagged_lines):
        items = [item.rsplit("/", 1) for item in tagged_line.split()]
        assert [word for word, _ in items] == words_line.split()
        assert all(tag in tagset for _, tag in items), tagged_line
    assert "/" not in plain.stdout  # no input line holds a slash


def test_jsonl_adds_one_tag_per_word_when_the_pipeline_tags(tagging_pipeline):
    result = segment(tagging_pipeline, "--format", "jsonl", input="\n".join(LINES) + "\n")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["text"] for record in records] == LINES
    for record in records:
        assert len(record["tags"]) == len(record["words"]) == len(record["offsets"])
        assert all(record["text"][start:end] == word for (start, end), word in zip(record["offsets"], record["words"]))
    assert sum(len(record["tags"]) for record in records) > 10


def test_an_interrupted_tagged_run_resumes_and_a_words_only_one_is_refused(tagging_pipeline, tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    whole = tmp_path / "whole.txt"
    assert segment(tagging_pipeline, "--tags", str(source), "-o", str(whole)).exit_code == 0
    cut = tmp_path / "cut.txt"
    lines = whole.read_bytes().split(b"\n")
    cut.write_bytes(b"\n".join(lines[:3]) + b"\n" + lines[3][:2])
    (tmp_path / "cut.txt.segment.json").write_bytes((tmp_path / "whole.txt.segment.json").read_bytes())
    resumed = segment(tagging_pipeline, "--tags", str(source), "-o", str(cut), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert cut.read_bytes() == whole.read_bytes()
    refused = segment(tagging_pipeline, str(source), "-o", str(whole), "--resume")
    assert refused.exit_code == 1 and "line 1" in refused.stderr and "Traceback" not in refused.stderr


def test_tags_from_a_pipeline_that_does_not_tag_is_a_clear_error(tagging_pipeline, tmp_path):
    words_only = tmp_path / "words-only"
    spacy.load(tagging_pipeline, exclude=list(TAGGING_COMPONENTS)).to_disk(words_only)
    result = segment(words_only, "--tags", input="今天天气很好\n")
    assert result.exit_code == 1
    assert "--tags needs a pipeline that tags" in result.stderr and "Traceback" not in result.stderr
    both = segment(tagging_pipeline, "--tags", "--probs", "--format", "jsonl", input="今天天气很好\n")
    assert both.exit_code == 1 and "--probs and --tags" in both.stderr


def test_output_without_tags_runs_the_segmenter_alone(tagging_pipeline):
    """Words only (text output without --tags, --probs): the tagger is
    disabled, so the segmenter runs alone; a pipeline with another component
    beside the tagger (an ner may listen to the tok2vec) is left whole."""
    nlp = spacy.load(tagging_pipeline)
    assert sole_segmenter(nlp) is None
    assert sole_segmenter(without_tagging(nlp)) is nlp.get_pipe("gd_segmenter")
    assert sorted(nlp.disabled) == sorted(TAGGING_COMPONENTS)
    with_ner = spacy.load(tagging_pipeline)
    with_ner.add_pipe("ner")
    assert without_tagging(with_ner).disabled == [] and sole_segmenter(with_ner) is None
