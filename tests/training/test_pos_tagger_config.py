"""configs/pos_tagger.cfg: spaCy's tagger and attribute_ruler initialise from
PFR DocBins (convert-pos), train through spaCy's own loop, set tag_ and pos_
on given words, and run from disk without torch (a user's install, without the train extra)."""
import io
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.training.initialize import init_nlp
from spacy.training.loop import train
from spacy.util import load_config, load_model_from_config
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.tagging.pku_upos import upos_of

from ..backends.test_torch_free_imports import WITHOUT_TORCH
from ..pfr_tagged_sample import DEV_DAYS, TEST_DAYS, write_sample

CONFIG = Path(__file__).resolve().parents[2] / "configs" / "pos_tagger.cfg"
TAGGED_PIPELINE = CONFIG.parent / "tagged_pipeline.cfg"
STEPS = 30


@pytest.fixture(scope="module")
def pfr_corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pfr")
    args = ["convert-pos", str(write_sample(folder)), str(folder), "--dev-days", ",".join(DEV_DAYS)]
    result = CliRunner().invoke(app, [*args, "--test-days", ",".join(TEST_DAYS)])
    assert result.exit_code == 0, result.output
    return folder


def _examples(nlp, path):
    """Examples of the gold words, as spacy train and spacy evaluate --gold-preproc make them."""
    docs = DocBin().from_disk(path).get_docs(nlp.vocab)
    return [Example(Doc(nlp.vocab, words=[t.text for t in doc], spaces=[False] * len(doc)), doc) for doc in docs]


@pytest.fixture(scope="module")
def trained(pfr_corpus):
    overrides = {
        "paths.train": str(pfr_corpus / "train.spacy"),
        "paths.dev": str(pfr_corpus / "dev.spacy"),
        "training.max_steps": STEPS,
        "training.eval_frequency": STEPS // 2,
    }
    nlp = init_nlp(load_config(CONFIG, overrides=overrides))
    examples = _examples(nlp, pfr_corpus / "train.spacy")
    before = nlp.evaluate(examples)["tag_acc"]
    train(nlp, None, stdout=io.StringIO(), stderr=io.StringIO())
    return nlp, before, nlp.evaluate(examples)


def test_labels_are_the_training_tags(trained, pfr_corpus):
    nlp, _, _ = trained
    docs = DocBin().from_disk(pfr_corpus / "train.spacy").get_docs(nlp.vocab)
    assert set(nlp.get_pipe("tagger").labels) == {t.tag_ for doc in docs for t in doc}


def test_training_learns_the_tags_and_pos_follows_them(trained):
    nlp, before, after = trained
    assert after["tag_acc"] > before
    assert after["pos_acc"] >= after["tag_acc"]  # a right tag always gives the right UPOS


def test_words_get_a_tag_and_its_upos(trained):
    nlp, _, _ = trained
    doc = nlp(Doc(nlp.vocab, words=["国务院", "侨办", "发表", "新年", "贺词"], spaces=[False] * 5))
    assert doc.text == "国务院侨办发表新年贺词"
    assert all(t.tag_ and t.pos_ == upos_of(t.tag_) for t in doc)


def test_the_saved_pipeline_runs_without_torch(trained, tmp_path):
    nlp, _, _ = trained
    nlp.to_disk(tmp_path / "pos")
    code = (
        WITHOUT_TORCH + "import spacy\n"
        "from spacy.tokens import Doc\n"
        f"nlp = spacy.load({str(tmp_path / 'pos')!r})\n"
        "doc = nlp(Doc(nlp.vocab, words=['发表', '新年', '贺词'], spaces=[False] * 3))\n"
        "print(' '.join(f'{t.text}/{t.tag_}/{t.pos_}' for t in doc))\n"
        "assert sys.modules['torch'] is None\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    doc = Doc(nlp.vocab, words=["发表", "新年", "贺词"], spaces=[False] * 3)
    expected = [(t.text, t.tag_, t.pos_) for t in nlp(doc)]
    assert [tuple(item.split("/")) for item in result.stdout.split()] == expected


def test_assembled_behind_a_segmenter_it_tags_the_segmenters_words(trained, tmp_path):
    """configs/tagged_pipeline.cfg (as `spacy assemble` reads it): the shipped segmenter's words, each with a
    PKU tag and its UPOS; excluding the tagger's components gives the same words, untagged."""
    nlp, _, _ = trained
    nlp.to_disk(tmp_path / "pos")
    segmenter = spacy.load("zh_cws_gd_sm")
    overrides = {"paths.segmenter": str(segmenter.path), "paths.tagger": str(tmp_path / "pos")}
    load_model_from_config(load_config(TAGGED_PIPELINE, overrides=overrides), auto_fill=True).to_disk(tmp_path / "t")
    tagged = spacy.load(tmp_path / "t")
    text = "他在2009年买了一部iPhone手机，售价5999元。"
    doc = tagged(text)
    assert doc.text == text and [t.text for t in doc] == [t.text for t in segmenter(text)]
    assert all(t.tag_ in nlp.get_pipe("tagger").labels and t.pos_ == upos_of(t.tag_) for t in doc)
    words_only = spacy.load(tmp_path / "t", exclude=["tok2vec", "tagger", "attribute_ruler"])
    assert words_only.pipe_names == ["gd_segmenter"]
    assert [(t.text, t.tag_) for t in words_only(text)] == [(t.text, "") for t in segmenter(text)]
