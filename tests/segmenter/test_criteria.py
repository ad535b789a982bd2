"""Multi-criteria segmentation: one model, a criterion embedding per corpus (Qiu et al. 2020)."""
import pytest
import spacy
import torch
from thinc.api import Adam

from spacy_cws.nets.wrapped_module import torch_module
from spacy_cws.segmenter.criteria import criterion_ids, training_criteria
from spacy_cws.segmenter.default_criterion import set_default_criterion
from spacy_cws.training.criterion_augmenter import create_criterion_from_reference

from ..segmentation_data import (
    COARSE,
    FINE,
    MODEL,
    TEXTS,
    blank_pipeline,
    criterion_pipeline as _pipeline,
    criterion_words as _words,
    make_examples,
    overfit,
)



def test_one_pipeline_segments_by_each_criterion(two_criteria_nlp, tmp_path):
    nlp = two_criteria_nlp
    assert nlp.get_pipe("gd_segmenter").criteria == ["coarse", "fine"]
    assert _words(nlp, TEXTS, "coarse") == [s.split() for s in COARSE]
    assert _words(nlp, TEXTS, "fine") == [s.split() for s in FINE]
    assert _words(nlp, TEXTS) == _words(nlp, TEXTS, "coarse")  # the default criterion
    nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert _words(reloaded, TEXTS, "fine") == [s.split() for s in FINE]
    # The default criterion is a config setting: an override at load time applies.
    fine_default = spacy.load(tmp_path / "pipeline", config={"components": {"gd_segmenter": {"criterion": "fine"}}})
    assert _words(fine_default, TEXTS) == [s.split() for s in FINE]


def test_unknown_criterion_lists_the_known_ones(two_criteria_nlp):
    with pytest.raises(ValueError, match="Unknown criterion 'msr'.*coarse, fine"):
        _words(two_criteria_nlp, TEXTS[:1], "msr")


def test_dev_evaluation_uses_each_docs_criterion(two_criteria_nlp):
    nlp = two_criteria_nlp
    augment = create_criterion_from_reference()
    fine = [eg for example in make_examples(nlp, FINE, "fine") for eg in augment(nlp, example)]
    assert nlp.evaluate(fine)["token_f"] == 1.0


def test_training_docs_need_a_criterion_or_a_default():
    nlp = _pipeline(criterion=None)
    examples = make_examples(nlp, COARSE, None)
    with pytest.raises(ValueError, match="has no criterion"):
        nlp.initialize(lambda: examples)
    with pytest.raises(ValueError, match="which no training Doc has"):
        training_criteria(["ctb6", "sxu"], "pku", "gd_segmenter")
    assert training_criteria(["ctb6", None, "sxu"], "ctb6", "gd_segmenter") == ["ctb6", "sxu"]


def test_joint_training_needs_no_default_criterion():
    """Without a default, each text is segmented by the criterion it names
    (and one naming none is an error)."""
    nlp = _pipeline(criterion=None)
    examples = make_examples(nlp, COARSE[:2], "coarse") + make_examples(nlp, FINE[:2], "fine")
    overfit(nlp, examples, updates=40, max_loss=0.02)
    assert nlp.get_pipe("gd_segmenter").criteria == ["coarse", "fine"]
    assert _words(nlp, TEXTS[:2], "coarse") == [s.split() for s in COARSE[:2]]
    assert _words(nlp, TEXTS[:2], "fine") == [s.split() for s in FINE[:2]]
    with pytest.raises(ValueError, match="has none"):
        _words(nlp, TEXTS[:1])


def test_text_without_criterion_and_no_default_is_an_error():
    with pytest.raises(ValueError, match="has none"):
        criterion_ids([None], ["ctb6", "sxu"], None, "gd_segmenter")
    assert criterion_ids([None, "sxu"], ["ctb6", "sxu"], "ctb6", "gd_segmenter") == [0, 1]
    assert criterion_ids(["anything"], [], None, "gd_segmenter") == [0]  # single-criterion model


def test_new_criterion_learns_with_everything_else_frozen(two_criteria_nlp, tmp_path):
    two_criteria_nlp.to_disk(tmp_path / "base")
    nlp = spacy.load(tmp_path / "base")
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.add_criterion("new", train_criteria_only=True)
    assert segmenter.criteria == ["coarse", "fine", "new"]
    module = torch_module(segmenter.model)
    frozen_before = {
        name: p.detach().clone() for name, p in module.named_parameters() if name != "criterion_embedding.weight"
    }
    rows_before = module.criterion_embedding.weight.detach().clone()
    nlp.resume_training()
    optimizer = Adam(0.01, L2=0.0)  # as our configs: no weight decay, which would shrink the old rows
    examples = make_examples(nlp, FINE, "new")
    for _ in range(40):
        nlp.update(examples, sgd=optimizer)
    for name, parameter in module.named_parameters():
        if name != "criterion_embedding.weight":
            assert torch.equal(parameter, frozen_before[name]), name
    rows_after = module.criterion_embedding.weight.detach()
    assert torch.equal(rows_after[:2], rows_before[:2])  # the old criteria are untouched
    assert not torch.equal(rows_after[2], rows_before[2])
    assert _words(nlp, TEXTS, "coarse") == [s.split() for s in COARSE]
    new_words = _words(nlp, TEXTS, "new")
    assert sum(w == s.split() for w, s in zip(new_words, FINE)) > sum(w == s.split() for w, s in zip(new_words, COARSE))
    nlp.to_disk(tmp_path / "transferred")
    transferred = spacy.load(tmp_path / "transferred")
    assert _words(transferred, TEXTS, "new") == new_words
    # Saved with the pipeline: it goes on training the criterion embeddings alone.
    assert transferred.get_pipe("gd_segmenter").cfg["train_criteria_only"] is True
    parameters = torch_module(transferred.get_pipe("gd_segmenter").model).named_parameters()
    assert {name for name, p in parameters if p.requires_grad} == {"criterion_embedding.weight"}


def test_single_criterion_pipeline_cannot_add_a_criterion(tmp_path):
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256})
    nlp.initialize(lambda: make_examples(nlp, COARSE[:2], None))
    with pytest.raises(ValueError, match="only a multi-criteria segmenter"):
        nlp.get_pipe("gd_segmenter").add_criterion("zx")


def test_default_criterion_of_a_loaded_pipeline(two_criteria_nlp):
    nlp = two_criteria_nlp
    set_default_criterion(nlp, "fine")
    try:
        assert _words(nlp, TEXTS[:3]) == [s.split() for s in FINE[:3]]
        with pytest.raises(ValueError, match="Unknown criterion 'pku'.*coarse, fine"):
            set_default_criterion(nlp, "pku")
    finally:
        set_default_criterion(nlp, "coarse")
