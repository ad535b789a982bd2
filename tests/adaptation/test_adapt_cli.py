"""``python -m spacy_cws adapt`` end to end on ZX raw text, and what it refuses."""
import importlib.util
import subprocess
import sys

import pytest
import spacy
import srsly
from thinc.api import Config
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.lexicon.sources import read_user_dictionary
from spacy_cws.segmenter.moved_settings import MOVED_SETTINGS

from ..backends.test_torch_free_imports import WITHOUT_TORCH


def invoke(*args):
    return CliRunner().invoke(app, ["adapt", *[str(arg) for arg in args]])


def assert_refused(result, named):
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr


@pytest.fixture(scope="module")
def raw_file(tmp_path_factory, zx_raw):
    if importlib.util.find_spec("zh_cws_gd_sm") is None:
        pytest.skip("zh_cws_gd_sm is not installed")
    path = tmp_path_factory.mktemp("raw") / "zx.txt"
    path.write_text("\n".join(zx_raw) + "\n", encoding="utf-8")
    return path


def test_lexicon_only_writes_a_loadable_pipeline(raw_file, zx_raw, tmp_path):
    output = tmp_path / "adapted"
    result = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--lexicon-only")
    assert result.exit_code == 0, result.output
    words = read_user_dictionary(output / "domain_words.txt")
    assert "张小凡" in words
    nlp = spacy.load(output)
    segmenter = nlp.get_pipe("gd_segmenter")
    assert segmenter.cfg["user_dictionary_mode"] == "prefer"
    assert set(segmenter.words) == set(words)
    text = "张小凡看着前方那个中年文士。"
    assert "张小凡" in [t.text for t in nlp(text)]
    assert len(nlp(text)._.gap_probs) == len(text) - 1
    # The source pipeline is untouched.
    source = spacy.load("zh_cws_gd_sm")
    assert "张小凡" not in source.get_pipe("gd_segmenter").words
    # Its meta: its own name, the source and the domain, none of the source's scores.
    meta = srsly.read_json(output / "meta.json")
    assert meta["name"] == f"{source.meta['name']}_adapted" and nlp.meta["name"] == meta["name"]
    assert meta["spacy_cws_source"] == {
        "name": source.meta["name"], "version": source.meta["version"], "command": "spacy_cws adapt"
    }
    assert meta["spacy_cws_domain"] == {"raw_text": [raw_file.name], "characters": sum(len(line) for line in zx_raw)}
    assert "performance" in source.meta
    assert not {"performance", "spacy_cws_test_scores", "spacy_cws_speed"} & set(meta)
    assert "F1" not in meta["description"] and raw_file.name in meta["description"]


def test_self_training_steps(raw_file, tmp_path):
    output = tmp_path / "adapted"
    result = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--self-train", "--steps", 2)
    assert result.exit_code == 0, result.output
    report = spacy.util.srsly.read_json(output / "adaptation.json")
    assert report["self_training"]["labelled_gap_share"] > 0.5
    adapted = spacy.load(output)
    assert adapted("张小凡看着前方。").text == "张小凡看着前方。"
    # The source ran on ONNX Runtime: so does the result, with a graph of its new
    # weights exported as the source's was (4-bit tables, static int8 products).
    source = spacy.load("zh_cws_gd_sm").get_pipe("gd_segmenter")
    segmenter = adapted.get_pipe("gd_segmenter")
    assert segmenter.has_graph == source.has_graph
    if source.has_graph:
        export = {"tables": source.cfg["onnx_tables"], "matmuls": source.cfg["onnx_matmuls"]}
        assert report["settings"]["onnx_export"] == export
        assert (segmenter.cfg["onnx_tables"], segmenter.inference_precision) == tuple(export.values())
    # The saved config no longer sets what moved out of the component's block: the component saved it.
    assert not set(MOVED_SETTINGS) & set(Config().from_disk(output / "config.cfg")["components"]["gd_segmenter"])
    assert segmenter.cfg["bigram_min_count"] == source.cfg["bigram_min_count"] == 3


def test_self_training_exports_as_the_options_say(raw_file, tmp_path):
    output = tmp_path / "adapted"
    options = ["--self-train", "--steps", 1, "--tables", "int8", "--matmuls", "float32"]
    result = invoke("zh_cws_gd_sm", raw_file, "--output", output, *options)
    assert result.exit_code == 0, result.output
    segmenter = spacy.load(output).get_pipe("gd_segmenter")
    assert segmenter.cfg["onnx_tables"] == "int8" and segmenter.cfg["onnx_matmuls"] == "float32"
    assert segmenter.inference_precision == "float32"
    refused = invoke("zh_cws_gd_sm", raw_file, "--output", tmp_path / "bad", "--self-train", "--matmuls", "int2")
    assert_refused(refused, "int2")


def test_the_default_mines_the_lexicon_and_trains_nothing(raw_file, tmp_path):
    output = tmp_path / "adapted"
    result = invoke("zh_cws_gd_sm", raw_file, "--output", output)
    assert result.exit_code == 0, result.output
    report = srsly.read_json(output / "adaptation.json")
    assert report["self_training"] is None and "self_training" not in report["settings"]
    assert "张小凡" in read_user_dictionary(output / "domain_words.txt")
    # The same pipeline as --lexicon-only's: the source's weights and graph.
    lexicon_only = tmp_path / "lexicon-only"
    assert invoke("zh_cws_gd_sm", raw_file, "--output", lexicon_only, "--lexicon-only").exit_code == 0
    assert (output / "domain_words.txt").read_bytes() == (lexicon_only / "domain_words.txt").read_bytes()
    text = "张小凡看着前方那个中年文士，田不易淡淡道。"
    assert [t.text for t in spacy.load(output)(text)] == [t.text for t in spacy.load(lexicon_only)(text)]


def test_options_that_conflict_with_the_default_or_each_other_are_refused(raw_file, tmp_path):
    output = tmp_path / "out"
    assert_refused(invoke("zh_cws_gd_sm", raw_file, "--output", output, "--steps", 2), "--steps tune self-training")
    tuned = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--threshold", 0.9, "--mask-only")
    assert_refused(tuned, "--threshold, --mask-only tune self-training, which runs with --self-train only")
    both = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--lexicon-only", "--self-train")
    assert_refused(both, "--lexicon-only trains nothing; --self-train self-trains")
    neither = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--lexicon-only", "--no-lexicon")
    assert_refused(neither, "--no-lexicon self-trains")
    gold = tmp_path / "gold.txt"
    gold.write_text("张小凡 看着 前方 。\n" * 60, encoding="utf-8")
    with_gold = invoke("zh_cws_gd_sm", raw_file, "--output", output, "--gold", gold, "--self-train")
    assert_refused(with_gold, "pass one of --gold and --self-train")
    assert not output.exists()


def test_refusals(raw_file, tmp_path):
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "notes.txt").write_text("keep me", encoding="utf-8")
    assert_refused(invoke("zh_cws_gd_sm", raw_file, "--output", existing, "--lexicon-only"), "exists: pass --force")
    forced = invoke("zh_cws_gd_sm", raw_file, "--output", existing, "--lexicon-only", "--force")
    assert_refused(forced, "not a pipeline (no config.cfg)")
    assert (existing / "notes.txt").read_text(encoding="utf-8") == "keep me"
    short = tmp_path / "short.txt"
    short.write_text("张小凡看着前方。\n", encoding="utf-8")
    assert_refused(invoke("zh_cws_gd_sm", short, "--output", tmp_path / "a"), "adapting needs at least 1,000")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes(raw_file.read_bytes() + "café\n".encode("latin-1"))
    assert_refused(invoke("zh_cws_gd_sm", latin1, "--output", tmp_path / "b"), f"{latin1}:601: not UTF-8")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_pipeline_without_gd_segmenter_is_refused(raw_file, tmp_path):
    blank = tmp_path / "blank"
    spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "char"}}}).to_disk(blank)
    result = invoke(blank, raw_file, "--output", tmp_path / "out", "--lexicon-only")
    assert_refused(result, "has no gd_segmenter component (it has no components)")
    assert "to-tokenizer" not in result.stderr  # a blank pipeline is no to-tokenizer copy


def test_the_source_pipeline_is_never_the_output(raw_file, tmp_path):
    source = tmp_path / "source"
    spacy.load("zh_cws_gd_sm").to_disk(source)
    assert_refused(invoke(source, raw_file, "--output", source, "--lexicon-only", "--force"), "source pipeline")
    assert (source / "config.cfg").is_file()


def test_self_training_without_torch_is_refused_before_the_text_is_segmented(raw_file, tmp_path):
    """In an install without torch, adapt says so before segmenting (minutes on a large text), not after."""
    code = WITHOUT_TORCH + (
        "import spacy_cws.adaptation.adapt as adapt\n"
        "adapt.label_texts = lambda *args, **kwargs: sys.exit('segmented the raw text before checking for torch')\n"
        "from spacy_cws.cli import app\n"
        "app(sys.argv[1:], prog_name='spacy_cws')\n"
    )
    args = ["adapt", "zh_cws_gd_sm", str(raw_file), "--output", str(tmp_path / "out"), "--self-train"]
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr[-2000:]
    assert "needs torch" in result.stderr and 'pip install "spacy-cws[train]"' in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()
