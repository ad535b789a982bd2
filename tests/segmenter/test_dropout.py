"""``update(drop=...)`` ([training] dropout) sets the torch model's dropout; prediction never drops."""
import pytest
from torch import nn

from spacy_cws.nets.dropout import AttentionDropout, set_module_dropout
from spacy_cws.nets.wrapped_module import torch_module

from ..segmentation_data import MODEL, blank_pipeline, make_examples
from .test_bmes_tagger import _tagger as bmes_pipeline


def gd_pipeline():
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256})
    return nlp


def initialized(nlp):
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    return nlp.get_pipe("gd_segmenter"), examples


def loss(segmenter, examples, drop):
    return segmenter.update(examples, drop=drop)["gd_segmenter"]


@pytest.mark.parametrize("make_pipeline", [gd_pipeline, lambda: bmes_pipeline("crf", 0)], ids=["gd", "bmes"])
def test_update_drops_at_the_training_rate(make_pipeline):
    """Both models are built with dropout 0.0: an update with drop 0.0 is
    deterministic, one with drop 0.5 is not; without an optimizer the weights
    stay, so the predictions before and after are the same."""
    segmenter, examples = initialized(make_pipeline())
    texts = [eg.predicted.text for eg in examples]
    before = [words.tolist() for words in segmenter.segment_texts(texts)]
    assert loss(segmenter, examples, 0.0) == loss(segmenter, examples, 0.0)
    assert loss(segmenter, examples, 0.5) != loss(segmenter, examples, 0.5)
    dropouts = [m for m in torch_module(segmenter.model).modules() if isinstance(m, nn.Dropout)]
    assert dropouts and all(m.p == 0.5 for m in dropouts)
    # Prediction runs the eval-mode copy: no dropout, whatever the training rate.
    assert [words.tolist() for words in segmenter.segment_texts(texts)] == before
    assert [words.tolist() for words in segmenter.segment_texts(texts)] == before


def test_attention_dropout_keeps_its_own_rate():
    module = nn.Sequential(nn.Dropout(0.1), AttentionDropout(0.3), nn.MultiheadAttention(8, 2, dropout=0.1))
    set_module_dropout(module, 0.5)
    assert (module[0].p, module[1].p, module[2].dropout) == (0.5, 0.3, 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        set_module_dropout(module, 1.5)
