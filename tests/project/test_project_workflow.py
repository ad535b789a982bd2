"""Smoke run of ``spacy project run all`` on a tiny fixture corpus."""
import lzma
import shutil

import pytest
import spacy
import srsly
from spacy.tokens import Doc, DocBin
from spacy.training.initialize import init_nlp
from weasel.cli.run import project_run

from spacy_cws.scoring.sighan import score_files

from ..conftest import REPO_ROOT
from ..segmentation_data import SENTENCES, TEXTS

TINY_MODEL = {
    "components.gd_segmenter.model.width": "16",
    "components.gd_segmenter.model.depth": "2",
    "components.gd_segmenter.model.ff_width": "32",
    "training.max_steps": "30",
    "training.eval_frequency": "10",
    "training.optimizer.learn_rate.warmup_steps": "5",
    "training.optimizer.learn_rate.total_steps": "30",
}


def _write_tiny_config(project):
    """configs/tiny.cfg: the CPU config shrunk to train in seconds."""
    config = spacy.util.load_config(REPO_ROOT / "configs" / "cpu.cfg")
    for key, value in TINY_MODEL.items():
        section = config
        *path, last = key.split(".")
        for part in path:
            section = section[part]
        section[last] = int(value)
    config.to_disk(project / "configs" / "tiny.cfg")


def _write_tiny_tagger(project):
    """training/pos-tiny/model-best: configs/pos_tagger.cfg initialised on two tagged sentences (untrained);
    returns the run's name, as `ship` takes it."""
    nlp = spacy.blank("zh")
    words, tags = [["今天", "天气", "很", "好"], ["我们", "喜欢", "天气"]], [["n", "n", "v", "v"], ["n", "v", "n"]]
    docs = DocBin(docs=[Doc(nlp.vocab, words=w, spaces=[False] * len(w), tags=t) for w, t in zip(words, tags)])
    docs.to_disk(project / "corpus" / "pos-tiny.spacy")
    corpus = str(project / "corpus" / "pos-tiny.spacy")
    config = spacy.util.load_config(REPO_ROOT / "configs" / "pos_tagger.cfg", overrides={"paths.train": corpus,
                                                                                          "paths.dev": corpus})
    (project / "training" / "pos-tiny").mkdir(parents=True)
    init_nlp(config).to_disk(project / "training" / "pos-tiny" / "model-best")
    return "pos-tiny"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf8")


def _write_fixture_corpus(local):
    """ctb6- and sxu-shaped folders of hand-segmented sentences (one blank
    line), and the NER and review files the n-gram vectors read, each tiny."""
    _write(local / "ctb6" / "train.seg", "\n".join(SENTENCES * 3) + "\n\n")
    _write(local / "ctb6" / "dev.seg", "\n".join(SENTENCES[:4]) + "\n")
    _write(local / "ctb6" / "test.seg", "\n".join(SENTENCES[4:]) + "\n")
    _write(local / "sighan2008_sxu" / "train.txt", "\n".join(SENTENCES * 2) + "\n")
    _write(local / "sighan2008_sxu" / "test.txt", "\n".join(SENTENCES[:2]) + "\n")
    tagged = "".join(f"{c} O\n" for c in TEXTS[0]) + "\n" + "".join(f"{c} O\n" for c in TEXTS[1]) + "\n"
    for split in ("train", "dev", "test"):
        _write(local / "ner" / "resume" / f"{split}.char.bmes", tagged)
        _write(
            local / "textcat" / "chnsenticorp" / f"{split}.tsv",
            "label\ttext_a\n1\t" + TEXTS[4] + "\n0\t" + TEXTS[3] + "\n",
        )
    msra = local / "ner" / "msra_bert_wwm"
    _write(msra / "dev.txt", tagged)
    with lzma.open(msra / "train.txt.xz", "wt", encoding="utf8") as stream:
        stream.write(tagged * 2)
    for name in ("waimai_10k/waimai_10k.csv", "chnsenticorp_htl_all/ChnSentiCorp_htl_all.csv"):
        _write(local / "textcat" / name, "label,review\n1," + TEXTS[4] + "\n")


@pytest.mark.slow  # about 90 s: some 23 commands, each a new process
def test_project_run_all_on_tiny_corpus(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(REPO_ROOT / "project.yml", project / "project.yml")
    shutil.copytree(REPO_ROOT / "configs", project / "configs")
    shutil.copytree(REPO_ROOT / "scripts", project / "scripts")
    shutil.copytree(REPO_ROOT / "benchmarks", project / "benchmarks")
    _write_tiny_config(project)
    local = tmp_path / "local"
    _write_fixture_corpus(local)
    overrides = {
        "vars.corpus": "ctb6",
        "vars.config": "tiny",
        "vars.local_data": str(local),
        "vars.fetch_options": "--no-verify",
        "vars.package_build": "none",
        "vars.speed_document_chars": "3000",
        "vars.ner_data": str(local / "ner" / "resume"),
        "vars.msra_data": str(local / "ner" / "msra_bert_wwm"),
        "vars.msra_dev_size": "1",
        "vars.sentiment_data": str(local / "textcat" / "chnsenticorp"),
    }
    project_run(project, "all", overrides=overrides, capture=True)

    metrics = srsly.read_json(project / "metrics" / "ctb6-tiny.json")
    official = metrics["official"]
    assert official["true_words"] == sum(len(s.split()) for s in SENTENCES[4:])
    # The workflow's numbers are the official scorer's on the files it wrote, and
    # spaCy's token F1 agrees with the official F1 on the same words.
    rescored = score_files(
        project / "corpus" / "ctb6" / "test_gold.utf8",
        project / "metrics" / "ctb6-tiny.test.seg",
        project / "corpus" / "ctb6" / "train_words.txt",
    ).to_dict()
    assert official.keys() == rescored.keys()
    for key, value in rescored.items():
        assert official[key] == (value if value is None else pytest.approx(value, abs=1e-9)), key
    assert metrics["spacy"]["token_f"] == pytest.approx(official["f1"], abs=1e-9)
    system_lines = (project / "metrics" / "ctb6-tiny.test.seg").read_text(encoding="utf8").splitlines()
    assert ["".join(line.split()) for line in system_lines] == ["".join(s.split()) for s in SENTENCES[4:]]
    version = srsly.read_yaml(project / "project.yml")["vars"]["package_version"]
    package = project / "packages" / f"zh_cws_gd-{version}"
    assert (package / "setup.py").exists()
    assert (project / "assets" / "ngram_vectors" / "bigrams.w2v").stat().st_size > 0
    nlp = spacy.load(project / "training" / "ctb6-tiny" / "model-best")
    assert nlp("今天天气很好").text == "今天天气很好"

    # The tiny config saves no weight checkpoints to average, and is not joint; the tagger is tiny too.
    ship = {**overrides, "vars.run": "ctb6-tiny", "vars.ship_model": "model-best",
            "vars.meta_options": "--tagger-corpus pku_pfr", "vars.pos_run": _write_tiny_tagger(project)}
    project_run(project, "ship", overrides=ship, capture=True)
    assert (project / "models" / f"zh_cws_gd-{version}.tar.gz").stat().st_size > 0
    assert (package / "zh_cws_gd" / f"zh_cws_gd-{version}" / "tagger").is_dir()
    tagged = spacy.load(project / "training" / "ctb6-tiny" / "model-tagged")
    assert tagged.pipe_names == ["gd_segmenter", "tok2vec", "tagger", "attribute_ruler"]
    assert all(token.tag_ in {"n", "v"} for token in tagged("今天天气很好"))
    meta = srsly.read_json(package / "meta.json")
    assert "PKU's tagset" in meta["description"]
    assert [r["batch_size"] for r in meta["spacy_cws_speed"]] == [1, 32, 256, 1]
    assert meta["spacy_cws_speed"][-1]["characters"] == 3000
    assert "research use" in meta["license"]
    half = spacy.load(project / "training" / "ctb6-tiny" / "model-half")
    assert half("今天天气很好").text == "今天天气很好"
