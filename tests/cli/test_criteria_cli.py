"""The multi-criteria commands: join-corpora, configure, add-criterion, evaluate --criterion."""
import spacy
from spacy.tokens import DocBin
from thinc.api import Config
from typer.testing import CliRunner

from spacy_cws.cli import app

from ..segmentation_data import COARSE, FINE, TEXTS, criterion_words, make_examples

runner = CliRunner()


def _write_corpus(folder, nlp, sentences, criterion):
    folder.mkdir(parents=True)
    for split in ("train", "dev"):
        docs = [eg.reference for eg in make_examples(nlp, sentences, criterion)]
        DocBin(docs=docs, store_user_data=True).to_disk(folder / f"{split}.spacy")


def test_join_corpora_keeps_each_docs_criterion(two_criteria_nlp, tmp_path):
    _write_corpus(tmp_path / "coarse", two_criteria_nlp, COARSE, "coarse")
    _write_corpus(tmp_path / "fine", two_criteria_nlp, FINE[:3], "fine")
    result = runner.invoke(
        app, ["join-corpora", str(tmp_path / "joint"), str(tmp_path / "coarse"), str(tmp_path / "fine")]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "joint" / "train").iterdir()) == ["coarse.spacy", "fine.spacy"]
    docs = DocBin().from_disk(tmp_path / "joint" / "train" / "fine.spacy").get_docs(two_criteria_nlp.vocab)
    assert [doc._.cws_criterion for doc in docs] == ["fine"] * 3


def test_join_corpora_names_a_missing_corpus(tmp_path):
    result = runner.invoke(app, ["join-corpora", str(tmp_path / "joint"), str(tmp_path / "nowhere")])
    assert result.exit_code == 1
    assert "nowhere/train.spacy" in result.output and "run the prepare command" in result.output


def test_configure_sets_the_default_criterion_and_opencc(two_criteria_nlp, tmp_path):
    two_criteria_nlp.to_disk(tmp_path / "base")
    args = ["configure", str(tmp_path / "base"), str(tmp_path / "fine"), "--criterion", "fine", "--opencc", "t2s"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    fine = spacy.load(tmp_path / "fine")
    assert fine.get_pipe("gd_segmenter").cfg["opencc"] == "t2s"
    assert criterion_words(fine, TEXTS) == [s.split() for s in FINE]
    # Traditional input is segmented through its Simplified view, in its own characters.
    assert "".join(criterion_words(fine, ["國務院批准"])[0]) == "國務院批准"
    unknown = runner.invoke(app, ["configure", str(tmp_path / "base"), str(tmp_path / "x"), "--criterion", "pku"])
    assert unknown.exit_code == 1
    assert "Unknown criterion 'pku'" in unknown.output and "coarse, fine" in unknown.output


def test_add_criterion_prepares_transfer(two_criteria_nlp, tmp_path):
    two_criteria_nlp.to_disk(tmp_path / "base")
    result = runner.invoke(app, ["add-criterion", str(tmp_path / "base"), str(tmp_path / "new"), "zx"])
    assert result.exit_code == 0, result.output
    settings = Config().from_disk(tmp_path / "new" / "config.cfg")["components"]["gd_segmenter"]
    assert settings["criterion"] == "zx" and "train_criteria_only" not in settings
    loaded = spacy.load(tmp_path / "new")
    assert loaded.get_pipe("gd_segmenter").criteria == ["coarse", "fine", "zx"]
    assert loaded.get_pipe("gd_segmenter").cfg["train_criteria_only"] is True  # saved with the component
    # The old criteria keep their embeddings: their segmentations are unchanged.
    assert criterion_words(loaded, TEXTS, "fine") == [s.split() for s in FINE]
    again = runner.invoke(app, ["add-criterion", str(tmp_path / "new"), str(tmp_path / "again"), "fine"])
    assert again.exit_code == 1 and "already has the criterion 'fine'" in again.output
