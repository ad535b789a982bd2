"""Every segmentation config in configs/ loads, initialises on a tiny corpus
and trains a few steps through spaCy's own training loop (``spacy train``'s),
shrunk to a toy size by overrides; the trained pipeline segments text."""
import io
from itertools import islice
from pathlib import Path

import pytest
import spacy
import torch
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.training.initialize import init_nlp
from spacy.training.loop import train
from spacy.util import load_config, registry
from thinc.api import Config
from torch import nn
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.nets.wrapped_module import torch_module
from spacy_cws.segmenter.moved_settings import MOVED_SETTINGS, TRAINING_KEYS
from spacy_cws.training.weight_checkpoints import checkpoint_step, list_checkpoints

from ..segmentation_data import SENTENCES, TEXTS, blank_pipeline, make_examples

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SEGMENTATION_CONFIGS = [
    "cpu", "cpu_bigram", "cpu_lexicon", "cpu_mccws", "cpu_san_crf", "cpu_student", "cpu_student_gd", "cpu_teacher",
    "mccws", "paper", "san_crf",
]
# Toy sizes for each architecture's settings (only those a config sets above 0).
TOY_MODEL = {
    "width": 16, "depth": 2, "n_heads": 2, "ff_width": 32, "unigram_width": 8, "bigram_width": 8,
    "trigram_width": 8, "trigram_rows": 64,
}
STEPS = 4


def test_every_config_is_covered():
    names = {path.stem for path in CONFIGS.glob("*.cfg")}
    mwa = {"char_ner", "char_textcat", "mwa_ner", "mwa_ner_bert", "mwa_textcat"}  # tests/mwa/test_configs.py
    mwa |= {"lm_ner", "lm_textcat", "mwa_textcat_bert"}  # tests/mwa/test_lm_configs.py
    tagger = {"pos_tagger", "tagged_pipeline"}  # tests/training/test_pos_tagger_config.py
    charlm = {"charlm"}  # tests/charlm/test_pretrain_charlm_cli.py
    charlm |= {"cpu_charlm", "cpu_san_crf_charlm"}  # tests/nets/test_charlm_features.py
    charlm |= {"cpu_teacher_charlm"}  # tests/segmenter/test_charlm_addition.py
    assert names == set(SEGMENTATION_CONFIGS) | {"transfer_criterion"} | mwa | tagger | charlm


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    """train.spacy and dev.spacy of the hand-segmented sentences (criterion "zx")."""
    folder = tmp_path_factory.mktemp("corpus")
    nlp = blank_pipeline()
    for split in ("train", "dev"):
        docs = [example.reference for example in make_examples(nlp, SENTENCES, "zx")]
        DocBin(docs=docs, store_user_data=True).to_disk(folder / f"{split}.spacy")
    return folder


def _overrides(config: Config, corpus: Path) -> dict:
    overrides = {
        "paths.train": str(corpus / "train.spacy"),
        "paths.dev": str(corpus / "dev.spacy"),
        "training.max_steps": STEPS,
        "training.max_epochs": 0,
        "training.eval_frequency": STEPS // 2,
        "paths.ngram_vectors": None,  # tests/ngram_vectors/ trains with vectors
    }
    if config["components"]["gd_segmenter"].get("criterion"):  # the default criterion must be one the corpus has
        overrides["components.gd_segmenter.criterion"] = "zx"
    model = config["components"]["gd_segmenter"].get("model", {})
    overrides.update(
        {f"components.gd_segmenter.model.{key}": value for key, value in TOY_MODEL.items() if model.get(key)}
    )
    return overrides


def _train(name: str, corpus: Path, **extra):
    """Initialise and train configs/NAME.cfg for STEPS steps. RETURNS the
    pipeline and the torch weights before and after training."""
    config = load_config(CONFIGS / f"{name}.cfg", interpolate=False)
    config = load_config(CONFIGS / f"{name}.cfg", overrides={**_overrides(config, corpus), **extra})
    nlp = init_nlp(config)
    before = _weights(nlp)
    train(nlp, None, stdout=io.StringIO(), stderr=io.StringIO())
    return nlp, before, _weights(nlp)


def _weights(nlp):
    module = torch_module(nlp.get_pipe("gd_segmenter").model)
    return {name: tensor.detach().clone() for name, tensor in module.state_dict().items()}


def _changed(before, after):
    return {name for name in before if not (before[name] == after[name]).all()}


@pytest.mark.parametrize("name", SEGMENTATION_CONFIGS)
def test_config_initialises_trains_and_segments(tiny_corpus, name):
    nlp, before, after = _train(name, tiny_corpus)
    assert _changed(before, after), "no weight changed in training"
    for text in TEXTS:
        assert nlp(text).text == text
    segmenter = nlp.get_pipe("gd_segmenter")
    training = nlp.config["initialize"]["components"]["gd_segmenter"]
    assert {key: segmenter.cfg[key] for key in training if key in TRAINING_KEYS} == {
        key: value for key, value in training.items() if key in TRAINING_KEYS
    }


@pytest.mark.parametrize("name", SEGMENTATION_CONFIGS)
def test_training_settings_are_set_at_initialize(name):
    """No config sets a setting that moved out of [components.gd_segmenter]
    (each would be read with a DeprecationWarning); the training settings are
    in [initialize.components.gd_segmenter], where the command line can set
    one (--initialize.components.gd_segmenter.multi_criteria true, project.yml)."""
    config = load_config(CONFIGS / f"{name}.cfg", interpolate=False)
    assert not set(MOVED_SETTINGS) & set(config["components"]["gd_segmenter"])
    assert "bigram_min_count" in config["initialize"]["components"]["gd_segmenter"]
    override = {"initialize.components.gd_segmenter.multi_criteria": True}
    overridden = load_config(CONFIGS / f"{name}.cfg", overrides=override)
    assert overridden["initialize"]["components"]["gd_segmenter"]["multi_criteria"] is True


@pytest.mark.parametrize("name", SEGMENTATION_CONFIGS)
def test_training_dropout_is_the_model_setting(name):
    """Each config writes the dropout once: [training] dropout is the model's."""
    config = load_config(CONFIGS / f"{name}.cfg", interpolate=True)
    assert config["training"]["dropout"] == config["components"]["gd_segmenter"]["model"]["dropout"] > 0


def test_training_dropout_reaches_the_torch_model(tiny_corpus):
    """spaCy's training loop passes [training] dropout to every update."""
    nlp, _, _ = _train("cpu_san_crf", tiny_corpus, **{"training.dropout": 0.37})
    model = nlp.get_pipe("gd_segmenter").model
    assert model.attrs["dropout_rate"] == 0.37
    rates = {m.p for m in torch_module(model).modules() if isinstance(m, nn.Dropout)}
    rates |= {m.dropout for m in torch_module(model).modules() if isinstance(m, nn.MultiheadAttention)}
    assert rates == {0.37}


def test_paper_config_uses_the_noam_schedule():
    config = load_config(CONFIGS / "paper.cfg")
    schedule = registry.resolve({"lr": config["training"]["optimizer"]["learn_rate"]})["lr"]
    rates = [next(schedule) for _ in range(8001)]
    assert max(rates) == rates[7999] == pytest.approx(256**-0.5 * 8000**-0.5)  # the peak at the warm-up's end
    assert rates[0] < rates[3999] < rates[7999] > rates[8000]


def test_transfer_config_learns_only_the_criterion_embeddings(two_criteria_nlp, tiny_corpus, tmp_path):
    two_criteria_nlp.to_disk(tmp_path / "base")
    result = CliRunner().invoke(app, ["add-criterion", str(tmp_path / "base"), str(tmp_path / "transfer"), "zx"])
    assert result.exit_code == 0, result.output
    nlp, before, after = _train("transfer_criterion", tiny_corpus, **{"paths.base": str(tmp_path / "transfer")})
    changed = _changed(before, after)
    assert changed and all("criteri" in name for name in changed), changed
    assert nlp.get_pipe("gd_segmenter").cfg["criterion"] == "zx"


TRAIN_SENTENCES, DEV_SENTENCES, STEPS_ON_CTB6 = 300, 100, 300
# What STEPS_ON_CTB6 steps of cpu.cfg at width 32 on 300 CTB6 sentences must
# gain in dev token F1 over the untrained model (measured with seed 0: 0.25 -> 0.65).
F1_GAIN = 0.3


@pytest.mark.slow
def test_spacy_train_on_ctb6_sentences_learns(shared_data, tmp_path):
    """``spacy train``'s loop on the first 300 CTB6 training sentences: the dev
    token F1 (100 CTB6 dev sentences) rises by at least F1_GAIN."""
    nlp = blank_pipeline()
    for split, source, count in (("train", "train.seg", TRAIN_SENTENCES), ("dev", "dev.seg", DEV_SENTENCES)):
        sentences = islice(read_segmented(shared_data / "ctb6" / source), count)
        docs = [Doc(nlp.vocab, words=s.words, spaces=[False] * len(s.words)) for s in sentences]
        DocBin(docs=docs).to_disk(tmp_path / f"{split}.spacy")
    overrides = {
        "training.max_steps": STEPS_ON_CTB6,
        "training.eval_frequency": STEPS_ON_CTB6,
        "training.batcher.size": 1024,
        "training.optimizer.learn_rate.warmup_steps": 30,
        "training.optimizer.learn_rate.total_steps": STEPS_ON_CTB6,
        "components.gd_segmenter.model.width": 32,
        "components.gd_segmenter.model.ff_width": 64,
    }
    config = load_config(CONFIGS / "cpu.cfg", interpolate=False)
    config = load_config(CONFIGS / "cpu.cfg", overrides={**_overrides(config, tmp_path), **overrides})
    nlp = init_nlp(config)
    dev = [
        Example(nlp.make_doc(doc.text), doc) for doc in DocBin().from_disk(tmp_path / "dev.spacy").get_docs(nlp.vocab)
    ]
    untrained = nlp.evaluate(dev)["token_f"]
    train(nlp, None, stdout=io.StringIO(), stderr=io.StringIO())
    trained = nlp.evaluate(dev)["token_f"]
    assert trained >= untrained + F1_GAIN, (untrained, trained)


def test_weight_checkpoints_are_saved_and_averaged(tiny_corpus, tmp_path):
    """cpu_lexicon.cfg's before_update callback saves the weights before every
    update from ``start`` on; average-weights loads their mean into the pipeline."""
    checkpoints = tmp_path / "checkpoints"
    overrides = {
        "paths.weight_checkpoints": str(checkpoints),
        "training.before_update.every": 1,
        "training.before_update.start": 1,
    }
    nlp, before, after = _train("cpu_lexicon", tiny_corpus, **overrides)
    paths = list_checkpoints(checkpoints)
    # spaCy counts steps from 0 to max_steps
    assert [checkpoint_step(path) for path in paths] == list(range(1, STEPS + 1))
    saved = [torch.load(path)["gd_segmenter.0"] for path in paths]
    assert _changed(saved[0], saved[-1]) and _changed(before, saved[-1])
    nlp.to_disk(tmp_path / "last")
    result = CliRunner().invoke(
        app, ["average-weights", str(tmp_path / "last"), str(checkpoints), str(tmp_path / "mean"), "--last", "2"]
    )
    assert result.exit_code == 0, result.output
    averaged = spacy.load(tmp_path / "mean")
    weights = _weights(averaged)
    for name, tensor in weights.items():
        if tensor.is_floating_point():
            assert torch.allclose(tensor, (saved[-2][name] + saved[-1][name]) / 2, atol=1e-6), name
    for text in TEXTS:
        assert averaged(text).text == text


def test_average_weights_names_a_folder_without_checkpoints(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "pipeline")
    result = CliRunner().invoke(
        app, ["average-weights", str(tmp_path / "pipeline"), str(tmp_path), str(tmp_path / "mean")]
    )
    assert result.exit_code != 0
    assert "no weight checkpoints" in result.output
