"""Soft gap targets on training Docs (doc._.gap_targets) and the loss that
learns them (segmenter/gap_targets_extension.py, training_steps.gold_loss)."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_cws.distillation.gap_decisions import word_cuts
from spacy_cws.segmenter.training_steps import gold_loss
from spacy_cws.streaming.segmentation import words_of_doc

from ..segmentation_data import MODEL, SENTENCES, TEXTS, blank_pipeline, make_examples


def _gold_targets(doc):
    """float32 per gap: 1 where the Doc's words are cut, else 0."""
    return word_cuts(len(doc.text), words_of_doc(doc).words)[1].astype(numpy.float32)


def _ctb6_examples(nlp, shared_data, n=24):
    lines = (shared_data / "ctb6" / "train.seg").read_text(encoding="utf8").splitlines()
    return make_examples(nlp, [line for line in lines[:n] if line.strip()])


def _loss(nlp, examples):
    """gold_loss of the examples, with the network's scores (no update)."""
    segmenter = nlp.get_pipe("gd_segmenter")
    views, spans, sequences = segmenter.training.example_features(examples, segmenter.name)
    scores = segmenter.model.predict(sequences)
    return gold_loss(segmenter.model, examples, views, spans, scores, segmenter.name)


@pytest.fixture(scope="module")
def initialized_nlp():
    """A tiny gap segmenter, initialized (untrained) on the shared sentences."""
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256})
    nlp.initialize(lambda: make_examples(nlp))
    return nlp


def test_gap_targets_are_checked_and_kept_as_float32():
    doc = Doc(spacy.blank("zh").vocab, words=["上海", "浦东", "开发"], spaces=[False] * 3)
    assert doc._.gap_targets is None
    doc._.gap_targets = [0, 1, -1, 0.25, 1]
    assert doc._.gap_targets.dtype == numpy.float32
    numpy.testing.assert_array_equal(doc._.gap_targets, [0, 1, -1, 0.25, 1])
    with pytest.raises(ValueError, match=r"shape \(5,\) for a text of 6 characters, got \(4,\)"):
        doc._.gap_targets = numpy.zeros(4)
    with pytest.raises(ValueError, match="gap 2 is 1.5"):
        doc._.gap_targets = [0, 1, 1.5, 0, 0]
    with pytest.raises(ValueError, match="gap 0 is -0.5"):
        doc._.gap_targets = [-0.5, 1, 1, 0, 0]
    doc._.gap_targets = None
    assert doc._.gap_targets is None


def test_docbin_with_user_data_keeps_gap_targets():
    nlp = spacy.blank("zh")
    doc = Doc(nlp.vocab, words=["新华社", "北京"], spaces=[False, False])
    targets = numpy.array([0.0, 0.1, 0.97, 0.2], dtype=numpy.float32)
    doc._.gap_targets = targets
    data = DocBin(store_user_data=True, docs=[doc]).to_bytes()
    (loaded,) = DocBin().from_bytes(data).get_docs(nlp.vocab)
    assert loaded._.gap_targets.dtype == numpy.float32
    numpy.testing.assert_array_equal(loaded._.gap_targets, targets)


def test_gold_targets_in_a_mixed_batch_give_exactly_the_gold_loss(initialized_nlp, shared_data):
    """On a real CTB6 batch, a batch some of whose Docs carry their own words
    as 0/1 targets (the masked soft-target loss over every sequence) has the
    loss and gradients of the batch without targets (the softmax loss)."""
    examples = _ctb6_examples(initialized_nlp, shared_data)
    loss, d_scores = _loss(initialized_nlp, examples)
    for eg in examples[::3]:
        eg.reference._.gap_targets = _gold_targets(eg.reference)
    mixed_loss, mixed_d_scores = _loss(initialized_nlp, examples)
    assert mixed_loss == pytest.approx(loss, rel=1e-6)
    assert len(mixed_d_scores) == len(d_scores)
    for mixed, plain in zip(mixed_d_scores, d_scores):
        numpy.testing.assert_array_equal(mixed, plain)
    # Targets other than the words change the gradient (p - target at each gap): they are what is learned.
    # (Not the loss: an untrained model's probabilities are near 0.5, where every target costs about log 2.)
    examples[0].reference._.gap_targets = numpy.full(len(examples[0].reference.text) - 1, 0.5, numpy.float32)
    soft_d_scores = _loss(initialized_nlp, examples)[1]
    assert not numpy.allclose(soft_d_scores[0], d_scores[0])
    numpy.testing.assert_array_equal(soft_d_scores[-1], d_scores[-1])  # the last Doc keeps its words


def test_soft_targets_pull_the_probabilities_toward_them(trained_nlp, tmp_path):
    """A segmenter trained on the sentences' words, updated a few times on
    references whose words are the same but whose targets are 0.5 at every
    gap, moves its gap probabilities toward 0.5 (the words alone would keep them near 0 and 1)."""
    trained_nlp.to_disk(tmp_path / "nlp")
    nlp = spacy.load(tmp_path / "nlp")
    examples = make_examples(nlp)
    for eg in examples:
        eg.reference._.gap_targets = numpy.full(len(eg.reference.text) - 1, 0.5, numpy.float32)

    def distance():
        return numpy.mean([numpy.abs(doc._.gap_probs - 0.5).mean() for doc in nlp.pipe(TEXTS)])

    before = distance()
    optimizer = nlp.create_optimizer()
    optimizer.learn_rate = 0.003
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    assert distance() < 0.7 * before


def test_soft_targets_need_a_gap_model():
    nlp = blank_pipeline()
    tagger = {
        "@architectures": "spacy-cws.BMESTagger.v2", "unigram_width": 16, "bigram_width": 8, "width": 32,
        "depth": 2, "n_heads": 4, "ff_width": 64, "dropout": 0.0, "window": 3, "decoder": "crf",
    }
    nlp.add_pipe("gd_segmenter", config={"model": tagger, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": 1}
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    nlp.update(examples)  # words alone: as before
    examples[1].reference._.gap_targets = _gold_targets(examples[1].reference)
    with pytest.raises(ValueError, match="tags B/M/E/S: learning from soft gap targets"):
        nlp.update(examples)


def test_reference_words_are_what_the_scorer_reads(trained_nlp):
    """A soft-target Doc's words still score as words (spaCy's scorer reads the reference tokens)."""
    examples = [Example(trained_nlp(text), eg.reference) for text, eg in zip(TEXTS, make_examples(trained_nlp))]
    for eg in examples:
        eg.reference._.gap_targets = _gold_targets(eg.reference)
    scores = trained_nlp.get_pipe("gd_segmenter").score(examples)
    assert scores["token_f"] == pytest.approx(1.0) and len(SENTENCES) == len(examples)
