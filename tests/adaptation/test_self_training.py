"""Partial gap labels and confidence-filtered self-training
(segmenter/partial_labels.py, adaptation/self_training.py)."""
import numpy
import pytest
import spacy
from thinc.api import NumpyOps

from spacy_cws.adaptation.self_training import SelfTrainingSettings, partial_labels, self_train
from spacy_cws.decoding.gap_labels import gap_labels, unit_starts_word
from spacy_cws.decoding.softmax_loss import softmax_cross_entropy
from spacy_cws.features.character_view import Normaliser
from spacy_cws.segmenter.partial_labels import masked_softmax_cross_entropy, unit_gap_labels


def test_partial_labels_threshold_and_distillation():
    probs = numpy.array([0.99, 0.5, 0.02, 0.9, 0.04], dtype=numpy.float32)
    numpy.testing.assert_array_equal(partial_labels(probs, 0.95), [1, -1, 0, -1, 0])
    numpy.testing.assert_allclose(partial_labels(probs, 0.95, distill=True), [1, 0.5, 0, 0.9, 0])


def test_unit_gap_labels_agree_with_gold_gap_labels():
    text = "他买了 iPhone 12，花了3500元。"
    words = ["他", "买", "了", "iPhone", "12", "，", "花", "了", "3500", "元", "。"]
    view = Normaliser()(text)
    starts, position = [], 0
    for word in words:
        position = text.index(word, position)
        starts.append(position)
        position += len(word)
    char_labels = numpy.zeros(len(text) - 1, dtype=numpy.float32)
    for start in starts[1:]:
        char_labels[start - 1] = 1.0
    spans = [(0, 6), (6, len(view))]
    expected = gap_labels(unit_starts_word(view, starts), spans)
    for (targets, counted), gold in zip(unit_gap_labels(view, spans, char_labels), expected):
        numpy.testing.assert_array_equal(targets, gold)
        assert counted.all()
    # A masked gap does not count; the sequence edges always do.
    char_labels[:] = -1
    for targets, counted in unit_gap_labels(view, spans, char_labels):
        assert counted[0] and counted[-1]


def test_masked_loss_is_the_full_loss_on_counted_gaps():
    ops = NumpyOps()
    rng = numpy.random.default_rng(0)
    scores = [rng.normal(size=(2, n + 1, 2)).astype("float32") for n in (4, 6)]
    gold = [rng.integers(0, 2, n + 1) for n in (4, 6)]
    full_loss, full_d = softmax_cross_entropy(ops, scores, gold)
    every = [numpy.ones(len(g), dtype=bool) for g in gold]
    loss, d_scores = masked_softmax_cross_entropy(ops, scores, [g.astype("float32") for g in gold], every)
    assert loss == pytest.approx(full_loss, rel=1e-5)
    for a, b in zip(d_scores, full_d):
        numpy.testing.assert_allclose(a, b, atol=1e-6)
    masked = [numpy.array([True, False, True, False, True]), numpy.ones(7, dtype=bool)]
    _, d_masked = masked_softmax_cross_entropy(ops, scores, [g.astype("float32") for g in gold], masked)
    assert not d_masked[0][:, 1].any() and not d_masked[0][:, 3].any()


def test_self_training_moves_the_weights_and_keeps_the_words(zx_raw):
    nlp = spacy.load("zh_cws_gd_sm")
    segmenter = nlp.get_pipe("gd_segmenter")
    texts = zx_raw[:200]
    words, probs = segmenter.segment_with_probs(texts)
    settings = SelfTrainingSettings(steps=3, batch_chars=500, distill=True)
    stats = self_train(segmenter, texts, probs, settings)
    assert 0.7 < stats["labelled_gap_share"] < 1.0
    new_words, new_probs = segmenter.segment_with_probs(texts)
    assert any(not numpy.allclose(a, b, atol=1e-4) for a, b in zip(probs, new_probs))
    # Three small steps toward its own confident labels change few words.
    changed = sum(not numpy.array_equal(a, b) for a, b in zip(words, new_words))
    assert changed <= len(texts) // 10


def test_settings_out_of_range():
    with pytest.raises(ValueError, match="above 0.5"):
        SelfTrainingSettings(threshold=0.4).check()
