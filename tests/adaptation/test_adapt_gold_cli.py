"""``adapt --gold`` (a standard from gold sentences) and ``adapt --suggest`` (the lines to segment) end to end."""
import subprocess
import sys

import pytest
import spacy
import srsly

from ..backends.test_torch_free_imports import LOAD_WITHOUT_TORCH
from .test_adapt_cli import assert_refused, invoke

pytest.importorskip("torch")

# The torch-blocked interpreter of LOAD_WITHOUT_TORCH, running the command line instead of loading a pipeline.
CLI_WITHOUT_TORCH = LOAD_WITHOUT_TORCH.split("import spacy\n")[0] + "from spacy_cws.cli import app\napp(sys.argv[1:])\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory, shared_data, zx_raw):
    """ZX raw text (600 lines) and 60 gold sentences of ZX training after them."""
    folder = tmp_path_factory.mktemp("gold")
    (folder / "raw.txt").write_text("\n".join(zx_raw) + "\n", encoding="utf-8")
    gold = []
    with (shared_data / "zx" / "train.zhuxian.wordpos").open(encoding="utf-8") as stream:
        for number, line in enumerate(stream):
            if 600 <= number < 660:
                gold.append(" ".join(token.rsplit("_", 1)[0] for token in line.split()))
    (folder / "gold.txt").write_text("\n".join(gold) + "\n", encoding="utf-8")
    return folder


def test_gold_becomes_the_default_criterion_and_the_source_stays_selectable(files, tmp_path):
    output = tmp_path / "adapted"
    result = invoke(
        "zh_cws_gd_sm", files / "raw.txt", "--output", output, "--gold", files / "gold.txt", "--gold-steps", 2,
        "--gold-raw-steps", 3,
    )
    assert result.exit_code == 0, result.output
    report = srsly.read_json(output / "adaptation.json")
    assert report["gold"]["sentences"] == 60 and report["few_shot"]["source_criterion"] == "ctb6"
    # then the gold sentences and the raw text together, labelled where the new criterion is sure
    assert report["few_shot"]["raw_steps"] == 3 and 0.5 < report["few_shot"]["labelled_raw_gap_share"] <= 1
    assert report["self_training"] is None
    nlp = spacy.load(output)
    segmenter = nlp.get_pipe("gd_segmenter")
    assert segmenter.criteria == ["ctb6", "pku", "user"] and segmenter.cfg["criterion"] == "user"
    model = nlp.get_pipe_config("gd_segmenter")["model"]  # its own top layer and heads load with it
    assert model["@architectures"] == "spacy-cws.GDTransformer.v3"
    assert model["criterion_heads"] == model["criterion_layers"] == [2]
    assert segmenter.has_graph  # it runs on ONNX Runtime as its source did
    text = "张小凡看着前方那个中年文士。"
    doc = nlp.make_doc(text)
    doc._.cws_criterion = "ctb6"
    assert segmenter(doc).text == nlp(text).text == text
    assert "'user'" in nlp.meta["description"]


def test_gold_with_no_lexicon_adds_no_mined_word(files, tmp_path):
    """--no-lexicon with --gold learns the standard alone: the mined words are written, none joins the
    segmenter, so the source criterion keeps its words where the lexicon would have moved them."""
    output, with_lexicon = tmp_path / "alone", tmp_path / "with-lexicon"
    for folder, extra in ((output, ["--no-lexicon"]), (with_lexicon, [])):
        args = [
            files / "raw.txt", "--output", folder, "--gold", files / "gold.txt", "--gold-steps", 2,
            "--gold-raw-steps", 0, *extra,
        ]
        result = invoke("zh_cws_gd_sm", *args)
        assert result.exit_code == 0, result.output
    report = srsly.read_json(output / "adaptation.json")
    assert report["lexicon_added"] is False and report["gold"]["sentences"] == 60
    assert "张小凡" in (output / "domain_words.txt").read_text(encoding="utf-8")
    alone = spacy.load(output)
    assert alone.get_pipe("gd_segmenter").words == []
    assert "张小凡" in spacy.load(with_lexicon).get_pipe("gd_segmenter").words
    assert alone.get_pipe("gd_segmenter").cfg["criterion"] == "user"


def test_gold_without_raw_text_learns_from_the_gold_text(files, tmp_path):
    output = tmp_path / "adapted"
    gold = files / "gold.txt"
    result = invoke(
        "zh_cws_gd", "--output", output, "--gold", gold, "--gold-steps", 1, "--criterion", "zx", "--gold-heads-only"
    )
    assert result.exit_code == 0, result.output
    nlp = spacy.load(output)
    segmenter = nlp.get_pipe("gd_segmenter")
    assert segmenter.criteria == ["ctb6", "pku", "zx"] and segmenter.cfg["criterion"] == "zx"
    model = nlp.get_pipe_config("gd_segmenter")["model"]  # heads only: the v2 settings, as before v3
    assert model["@architectures"] == "spacy-cws.GDTransformer.v2" and "criterion_layers" not in model
    assert model["criterion_heads"] == [2]
    few_shot = srsly.read_json(output / "adaptation.json")["few_shot"]
    assert few_shot["source_criterion"] == "ctb6" and "raw_steps" not in few_shot  # no raw text: gold only


def test_gold_refusals(files, tmp_path):
    gold = (files / "gold.txt").read_text(encoding="utf-8").splitlines()
    tabbed = tmp_path / "tabbed.txt"
    tabbed.write_text("\n".join(gold[:5] + [gold[5].replace(" ", "\t", 1)] + gold[6:]) + "\n", encoding="utf-8")
    assert_refused(invoke("zh_cws_gd_sm", "--output", tmp_path / "a", "--gold", tabbed), f"{tabbed}:6: holds a tab")
    raw = files / "raw.txt"
    assert_refused(invoke("zh_cws_gd_sm", "--output", tmp_path / "b", "--gold", raw), f"{raw}: no line holds two words")
    few = tmp_path / "few.txt"
    few.write_text("\n".join(gold[:49]) + "\n", encoding="utf-8")
    assert_refused(invoke("zh_cws_gd_sm", "--output", tmp_path / "e", "--gold", few), f"{few}: 49 gold sentences")
    untiled = tmp_path / "untiled.txt"
    untiled.write_text("\n".join(gold[:2] + ["咖啡 cafe \u0301 馆"] + gold[2:]) + "\n", encoding="utf-8")
    assert_refused(
        invoke("zh_cws_gd_sm", "--output", tmp_path / "f", "--gold", untiled), f"{untiled}:3: the words do not tile"
    )
    # A name the source's criteria have: refused before the raw text is labelled and mined.
    taken = invoke("zh_cws_gd", raw, "--output", tmp_path / "g", "--gold", files / "gold.txt", "--criterion", "pku")
    assert_refused(taken, "has the criterion 'pku' already (its criteria: ctb6, pku)")
    both = invoke("zh_cws_gd_sm", raw, "--output", tmp_path / "c", "--gold", files / "gold.txt", "--lexicon-only")
    assert_refused(both, "--lexicon-only learns none")
    assert_refused(invoke("zh_cws_gd_sm", "--output", tmp_path / "d"), "Give the raw text of your domain")
    assert_refused(invoke("zh_cws_gd_sm", raw), "Missing option '--output'")
    assert not any((tmp_path / name).exists() for name in "abcdefg")


def test_suggest_writes_the_least_certain_lines_segmented(files, tmp_path):
    output = tmp_path / "suggested.txt"
    result = invoke("zh_cws_gd_sm", files / "raw.txt", "--suggest", 60, "--output", output)
    assert result.exit_code == 0, result.output
    lines = output.read_text(encoding="utf-8").splitlines()
    raw = set((files / "raw.txt").read_text(encoding="utf-8").splitlines())
    assert len(lines) == 60 and all(line.replace(" ", "") in raw for line in lines)
    assert all(" " in line for line in lines)
    # Corrected (here: as they are), they are a gold file.
    learned = invoke("zh_cws_gd_sm", "--output", tmp_path / "adapted", "--gold", output, "--gold-steps", 1)
    assert learned.exit_code == 0, learned.output
    printed = invoke("zh_cws_gd_sm", files / "raw.txt", "--suggest", 3)
    assert printed.exit_code == 0 and printed.stdout.splitlines() == lines[:3]


@pytest.mark.slow
def test_without_torch_gold_is_refused_first_and_the_lexicon_only_still_adapts(files, tmp_path):
    def run(*args):
        command = [sys.executable, "-c", CLI_WITHOUT_TORCH, "adapt", "zh_cws_gd_sm", *map(str, args)]
        return subprocess.run(command, capture_output=True, text=True, timeout=600)

    refused = run(files / "raw.txt", "--output", tmp_path / "gold", "--gold", files / "gold.txt")
    assert refused.returncode == 1 and 'pip install "spacy-cws[train]"' in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "gold").exists()
    lexicon = run(files / "raw.txt", "--output", tmp_path / "lexicon", "--lexicon-only")
    assert lexicon.returncode == 0, lexicon.stderr[-2000:]
    assert (tmp_path / "lexicon" / "domain_words.txt").is_file()
