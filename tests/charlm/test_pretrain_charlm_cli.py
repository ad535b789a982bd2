"""``python -m spacy_cws pretrain-charlm``: a run from ZX text and a review CSV, and its refusals."""
import json

import pytest

from ..adaptation.conftest import zx_raw_lines
from ..cli.cli_calls import invoke, invoke_ok
from .test_pretraining_text import write_docbin

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("accelerate")

TINY = ["--model.layers", 1, "--model.width", 32, "--model.heads", 2, "--model.intermediate", 64,
        "--model.max_length", 64, "--training.steps", 4, "--training.batch_size", 8, "--training.save_steps", 2,
        "--training.warmup_steps", 0, "--text.heldout_share", 0.1]


def test_the_command_trains_from_corpora_and_reviews_and_reports_per_source(shared_data, tmp_path):
    corpus = write_docbin(tmp_path / "zx.spacy", zx_raw_lines(shared_data, 200))
    reviews = shared_data / "textcat" / "waimai_10k" / "waimai_10k.csv"
    invoke_ok("pretrain-charlm", tmp_path / "lm", corpus, reviews, *TINY)
    metrics = json.loads((tmp_path / "lm" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["steps"] == 4 and 0 <= metrics["heldout_masked_lm_accuracy"] <= 1
    assert metrics["sources"][str(corpus)]["texts"] == 200 and metrics["sources"][str(reviews)]["texts"] > 10_000
    assert (tmp_path / "lm" / "model" / "vocab.txt").is_file() and (tmp_path / "lm" / "model" / "config.json").is_file()
    invoke_ok("pretrain-charlm", tmp_path / "lm", corpus, reviews, *TINY, "--resume")
    again = json.loads((tmp_path / "lm" / "metrics.json").read_text(encoding="utf-8"))
    assert again["steps"] == 4 and again["resumed_from"].endswith("checkpoint-4")  # the run had ended: no step more
    assert again["heldout_masked_lm_accuracy"] == metrics["heldout_masked_lm_accuracy"]  # the same tokens masked
    begun_again = invoke("pretrain-charlm", tmp_path / "lm", corpus, *TINY)
    assert begun_again.exit_code == 1 and "holds a run: pass --resume" in begun_again.output


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
