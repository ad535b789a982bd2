"""``python -m spacy_cws pretrain-charlm``: reading corpora and review CSVs, and its refusals (in process:
each fails before any training; the training runs are in test_pretraining.py)."""
import json

import pytest

from ..adaptation.conftest import zx_raw_lines
from ..cli.cli_calls import invoke
from .test_pretraining import pretrain
from .test_pretraining_text import write_docbin

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("accelerate")


def test_the_command_reads_corpora_and_reviews_and_reports_per_source(shared_data, tmp_path):
    corpus = write_docbin(tmp_path / "zx.spacy", zx_raw_lines(shared_data, 200))
    reviews = shared_data / "textcat" / "waimai_10k" / "waimai_10k.csv"
    result = pretrain(tmp_path / "lm", [corpus, reviews], "--training.steps", 2, "--training.save_steps", 2)
    assert result.returncode == 0, result.stderr
    metrics = json.loads((tmp_path / "lm" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["steps"] == 2 and metrics["sources"][str(corpus)]["texts"] == 200
    assert metrics["sources"][str(reviews)]["texts"] > 10_000
    assert (tmp_path / "lm" / "model" / "vocab.txt").is_file() and (tmp_path / "lm" / "model" / "config.json").is_file()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["missing.spacy"], "missing.spacy not found: prepare or convert the corpus first"),
        (["CORPUS", "--model.depth", 2], "settings pretrain-charlm does not know: depth"),
        (["CORPUS", "--model.heads", 3], "width (256) must be a multiple of heads (3)"),
        (["CORPUS", "--config", "nothere.cfg"], "The config nothere.cfg does not exist"),
    ],
)
def test_bad_input_is_refused_in_one_line(shared_data, tmp_path, arguments, message):
    corpus = str(write_docbin(tmp_path / "zx.spacy", zx_raw_lines(shared_data, 20)))
    arguments = [corpus if a == "CORPUS" else (str(tmp_path / a) if a == "missing.spacy" else a) for a in arguments]
    result = invoke("pretrain-charlm", tmp_path / "lm", *arguments)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
