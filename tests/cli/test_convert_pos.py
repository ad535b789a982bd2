"""python -m spacy_cws convert-pos: PFR with PKU tags -> train/dev/test DocBins by date."""
import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.catalog import PFR_HELD_OUT_DAYS
from spacy_cws.corpora.held_out_days import held_out_lines
from spacy_cws.tagging.pku_upos import pku_upos

from ..pfr_tagged_sample import COMPOUND_WORDS, DEV_DAYS, LINES, SPLIT_WORDS, TEST_DAYS, write_sample


def invoke(*args):
    return CliRunner().invoke(app, ["convert-pos", *[str(arg) for arg in args]])


def read_split(folder, split):
    return list(DocBin().from_disk(folder / f"{split}.spacy").get_docs(spacy.blank("zh").vocab))


def test_splits_by_date_with_tags_and_upos(tmp_path):
    out = tmp_path / "corpus"
    result = invoke(write_sample(tmp_path), out, "--dev-days", ",".join(DEV_DAYS), "--test-days", ",".join(TEST_DAYS))
    assert result.exit_code == 0, result.output
    docs = {split: read_split(out, split) for split in SPLIT_WORDS}
    assert {split: sum(len(doc) for doc in split_docs) for split, split_docs in docs.items()} == SPLIT_WORDS
    assert [(t.text, t.tag_) for t in docs["train"][1]] == COMPOUND_WORDS
    upos = pku_upos()
    assert all(t.pos_ == upos[t.tag_] for split_docs in docs.values() for doc in split_docs for t in doc)
    assert docs["dev"][0].text == "王怀远当选辽宁省人大常委会主任张国光当选辽宁省省长"


TEST = ["--test-days", ",".join(TEST_DAYS)]


@pytest.mark.parametrize(
    "lines, options, named",
    [
        (LINES + ["19980101-01-001-009/m  政府/xx  "], TEST, "199801.txt:9: tag(s) xx are not PKU"),
        (LINES, ["--dev-days", "19980127", *TEST], "No paragraph of"),
        (LINES, ["--dev-days", "1998-01-26", *TEST], "--dev-days takes comma-separated dates YYYYMMDD"),
        (
            LINES,
            ["--dev-days", "19980126", "--test-days", "19980126"],
            "Days both in --dev-days and --test-days: 19980126",
        ),
        (LINES[2:], ["--dev-days", "19980126", *TEST], "none is left for train.spacy"),
    ],
)
def test_bad_input_is_one_message(tmp_path, lines, options, named):
    out = tmp_path / "corpus"
    result = invoke(write_sample(tmp_path, lines), out, *options)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr
    assert not out.exists()


@pytest.mark.slow
def test_real_pfr_test_split_is_the_held_out_days(shared_data, tmp_path):
    path = shared_data / "pku_pfr1998" / "199801.txt"
    result = invoke(path, tmp_path)
    assert result.exit_code == 0, result.output
    test = read_split(tmp_path, "test")
    assert len(test) == len(held_out_lines(path, PFR_HELD_OUT_DAYS))
    train_and_dev = read_split(tmp_path, "train") + read_split(tmp_path, "dev")
    assert sum(len(doc) for doc in train_and_dev + test) == 1_121_447  # PFR's words (pku_pfr1998/MANIFEST.md)
