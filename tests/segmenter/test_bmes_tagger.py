"""BMES taggers (SAN-CRF, Gan & Zhang 2020; multi-criteria Transformer, Qiu et al. 2020) in the segmenter component."""
import itertools

import numpy
import pytest
import spacy
import torch
from spacy.util import fix_random_seed

from spacy_cws.decoding.bmes_tags import B, E, M, S, bmes_tags, starts_from_tags
from spacy_cws.decoding.viterbi import ALLOWED_ENDS, ALLOWED_STARTS, ALLOWED_TRANSITIONS, viterbi_bmes
from spacy_cws.nets.crf_loss import crf_loss, crf_of
from spacy_cws.nets.wrapped_module import torch_module

from ..segmentation_data import SENTENCES, blank_pipeline, make_examples, overfit

TEXTS = ["".join(s.split()) for s in SENTENCES]


def _tagger(decoder, window, **settings):
    model = {
        "@architectures": "spacy-cws.BMESTagger.v2",
        "unigram_width": 16,
        "bigram_width": 8,
        "width": 32,
        "depth": 2,
        "n_heads": 4,
        "ff_width": 64,
        "dropout": 0.0,
        "window": window,
        "decoder": decoder,
    }
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256, **settings})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": 1}
    return nlp


def _words(nlp, texts, batch_size=8):
    return [[t.text for t in doc] for doc in nlp.pipe(texts, batch_size=batch_size)]


@pytest.fixture(scope="module")
def san_crf_nlp():
    nlp = _tagger("crf", window=3)
    return overfit(nlp, make_examples(nlp), updates=120, max_loss=0.05)


def test_san_crf_overfits_and_round_trips(san_crf_nlp, tmp_path):
    assert _words(san_crf_nlp, TEXTS) == [s.split() for s in SENTENCES]
    san_crf_nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert _words(reloaded, TEXTS) == [s.split() for s in SENTENCES]
    crf, crf_reloaded = (crf_of(nlp.get_pipe("gd_segmenter").model) for nlp in (san_crf_nlp, reloaded))
    assert torch.equal(crf.transitions, crf_reloaded.transitions)


def test_crf_transitions_are_trained():
    fix_random_seed(0)  # ten updates: which allowed moves gain first depends on the initialisation
    nlp = _tagger("crf", window=3)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    crf = crf_of(nlp.get_pipe("gd_segmenter").model)
    before = crf.transitions.detach().clone()
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    moved = crf.transitions.detach() - before
    # Gold data never has B -> B or E -> M: their scores only go down.
    assert moved[B, B] < 0 and moved[E, M] < 0
    assert moved[B, E] > 0 and moved[S, S] > 0


def test_predictions_do_not_depend_on_batch_size(san_crf_nlp):
    texts = TEXTS * 2 + ["今天北京天气很好，新华社记者报道。" * 9]
    reference = _words(san_crf_nlp, texts, batch_size=1)
    assert _words(san_crf_nlp, texts, batch_size=5) == reference


def test_softmax_decoder_global_attention_overfits():
    nlp = _tagger("softmax", window=0)
    overfit(nlp, make_examples(nlp), updates=120, max_loss=0.05)
    assert _words(nlp, TEXTS) == [s.split() for s in SENTENCES]


@pytest.mark.parametrize("text", ["", "  ", "龘靐齉爩 abc", "边境城市" * 300, "第一行\n第二行"])
def test_text_is_never_lost(san_crf_nlp, text):
    doc = san_crf_nlp(text)
    assert doc.text == text
    assert all(not token.text.strip() or token.text == token.text.strip() for token in doc)


def test_crf_loss_gradient_matches_autograd(san_crf_nlp):
    model = san_crf_nlp.get_pipe("gd_segmenter").model
    rng = numpy.random.default_rng(0)
    scores = [rng.normal(size=(1, n, 4)).astype("float32") for n in (5, 2, 7)]
    tags = [numpy.array(t) for t in ([B, E, S, B, E], [S, S], [B, M, M, E, S, B, E])]
    crf = crf_of(model)
    crf.zero_grad()
    loss, d_scores = crf_loss(model, scores, tags)
    assert crf.transitions.grad is not None and crf.transitions.grad.abs().sum() > 0
    crf.zero_grad()
    for row in range(3):
        # Per-sequence NLL divided by the batch's characters: gradient of the
        # summed loss w.r.t. this sequence's emissions.
        emissions = torch.tensor(scores[row][0][None], requires_grad=True)
        mask = torch.ones(1, len(tags[row]), dtype=torch.bool)
        nll = -crf(emissions, torch.tensor(tags[row][None]), mask) / 14
        nll.backward()
        numpy.testing.assert_allclose(d_scores[row][0], emissions.grad[0].numpy(), atol=1e-6)
    crf.zero_grad()


def test_bmes_tags_round_trip_word_starts():
    starts = numpy.array([1, 0, 0, 1, 1, 0, 1, 0, 0, 0], dtype=bool)
    tags = bmes_tags(starts, [(0, 10)])[0]
    assert tags.tolist() == [B, M, E, S, B, E, B, M, M, E]
    assert starts_from_tags(tags).tolist() == starts.tolist()
    # A cut inside a word makes each piece a word of its own sequence.
    assert [t.tolist() for t in bmes_tags(starts, [(0, 2), (2, 10)])] == [[B, E], [S, S, B, E, B, M, M, E]]


def _brute_force_best(emissions, start, transitions, end):
    best = None
    for tags in itertools.product(range(4), repeat=len(emissions)):
        pairs = list(zip(tags, tags[1:]))
        if not (
            ALLOWED_STARTS[tags[0]] and ALLOWED_ENDS[tags[-1]] and all(ALLOWED_TRANSITIONS[a, b] for a, b in pairs)
        ):
            continue
        score = start[tags[0]] + end[tags[-1]] + sum(emissions[i, t] for i, t in enumerate(tags))
        score += sum(transitions[a, b] for a, b in pairs)
        if best is None or score > best[0]:
            best = (score, list(tags))
    return best[1]


def test_viterbi_is_exact_and_obeys_bmes_constraints():
    rng = numpy.random.default_rng(1)
    for _ in range(20):
        emissions = [rng.normal(scale=2, size=(n, 4)).astype("float32") for n in rng.integers(1, 7, size=5)]
        start, transitions, end = rng.normal(size=4), rng.normal(size=(4, 4)), rng.normal(size=4)
        decoded = viterbi_bmes(emissions, start, transitions, end)
        for scores, tags in zip(emissions, decoded):
            assert tags.tolist() == _brute_force_best(scores, start, transitions, end)


def test_unknown_decoder_is_a_clear_error():
    with pytest.raises(ValueError, match="decoder must be one of"):
        _tagger("greedy", window=0).initialize(lambda: make_examples(spacy.blank("zh")))


def test_local_window_limits_what_a_character_sees(san_crf_nlp):
    """With window w, changing a character more than w * depth positions away
    cannot change another character's emissions."""
    component = san_crf_nlp.get_pipe("gd_segmenter")
    module = torch_module(component.model).eval()
    text = "国务院批准了十四个边境城市为对外开放城市"
    changed = "国务院批准了十四个边境城市为对外开放城镇"
    _, _, (features,) = component.training.featurize([text], [None], component.name)
    _, _, (features_changed,) = component.training.featurize([changed], [None], component.name)
    with torch.inference_mode():
        out = component.model.predict([features, features_changed])
    reach = module.window * len(module.encoder.layers) + 1  # + 1: the right bigram of the changed position's neighbour
    far = len(text) - 1 - reach
    numpy.testing.assert_allclose(out[0][0, :far], out[1][0, :far], atol=1e-5)
    assert not numpy.allclose(out[0][0, -1], out[1][0, -1])
