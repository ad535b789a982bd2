"""Learning a standard from gold sentences (adaptation/few_shot.py) on the DL novel: the new criterion
moves toward the gold words, then learns from the raw text's confident gaps too, and the source
criterion keeps exactly the source's."""
import numpy
import pytest
import spacy

torch = pytest.importorskip("torch")

from spacy_cws.adaptation.few_shot import FewShotSettings, learn_from_raw_text, learn_gold_standard  # noqa: E402
from spacy_cws.adaptation.self_training import partial_labels  # noqa: E402
from spacy_cws.nets.criterion_growth import CRITERION_PARAMETERS  # noqa: E402
from spacy_cws.nets.wrapped_module import torch_module  # noqa: E402


def wrong_gaps(segmenter, sentences, criterion):
    """Gaps where the segmenter's words under ``criterion`` and the gold words disagree."""
    texts = ["".join(words) for words in sentences]
    wrong = 0
    for words, spans in zip(sentences, segmenter.segment_texts(texts, [criterion] * len(texts))):
        gold = set(numpy.cumsum([len(word) for word in words])[:-1].tolist())
        wrong += len(gold ^ {start for start, _ in spans[1:]})
    return wrong


@pytest.fixture(scope="module")
def gold(dl_gold):
    """80 gold sentences of the DL novel."""
    return dl_gold[:80]


@pytest.fixture(scope="module")
def raw(dl_gold):
    """The DL novel's next 600 sentences as raw text."""
    return ["".join(words) for words in dl_gold[80:680]]


@pytest.mark.parametrize("top_layer", [True, False])
def test_the_new_criterion_learns_the_gold_standard_and_the_source_stays(gold, raw, top_layer):
    nlp = spacy.load("zh_cws_gd_sm", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    segmenter = nlp.get_pipe("gd_segmenter")
    before_wrong = wrong_gaps(segmenter, gold, None)
    before_words, before_probs = segmenter.segment_with_probs(raw)
    weights = {name: p.detach().clone() for name, p in torch_module(segmenter.model).named_parameters()}
    settings = FewShotSettings(criterion="dl", steps=20, batch_chars=600, top_layer=top_layer)
    stats = learn_gold_standard(nlp, segmenter, gold, settings)
    assert stats["source_criterion"] == "ctb6" and stats["last_gold_loss"] < stats["first_gold_loss"]
    assert stats["steps"] == 20
    assert segmenter.criteria == ["ctb6", "pku", "dl"]
    assert segmenter.cfg["criterion"] == nlp.get_pipe_config("gd_segmenter")["criterion"] == "dl"
    assert wrong_gaps(segmenter, gold, "dl") < 0.7 * before_wrong
    # Under the source criterion the raw text gets exactly the source's words and probabilities.
    source_words, source_probs = segmenter.segment_with_probs(raw, ["ctb6"] * len(raw))
    assert all(numpy.array_equal(a, b) for a, b in zip(before_words, source_words))
    assert all(numpy.array_equal(a, b) for a, b in zip(before_probs, source_probs))
    # ... and under the new one other probabilities.
    _, new_probs = segmenter.segment_with_probs(raw, ["dl"] * len(raw))
    assert numpy.abs(numpy.concatenate(new_probs) - numpy.concatenate(source_probs)).max() > 0.1
    # Only the new criterion's embedding row, heads (and top layer) learned; everything can learn again afterwards.
    module = torch_module(segmenter.model)
    embedding = "criterion_embedding.weight"  # grown by the new criterion's row: the source's rows stay
    assert torch.equal(module.criterion_embedding.weight[:2], weights[embedding])
    kept = weights.keys() - {embedding}
    assert all(torch.equal(p, weights[name]) for name, p in module.named_parameters() if name in kept)
    assert all(p.requires_grad for p in module.parameters())
    assert module.criterion_layer_ids == ([2] if top_layer else [])
    if top_layer:  # the copy of the shared top layer learned
        shared, own = module.encoders["centre_encoder"].layers[-1], module.criterion_layers[0]["centre_encoder"]
        assert not torch.equal(own.attention.qkv.weight, shared.attention.qkv.weight)


def test_the_raw_text_sharpens_the_new_criterion_on_its_confident_gaps(gold, raw):
    """After the gold steps, steps on gold and raw batches make the new criterion surer of the raw gaps it
    labelled (their boundary probabilities move toward the labels); the shared weights stay."""
    nlp = spacy.load("zh_cws_gd_sm", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    segmenter = nlp.get_pipe("gd_segmenter")
    settings = FewShotSettings(criterion="dl", steps=10, batch_chars=600, raw_steps=15)
    learn_gold_standard(nlp, segmenter, gold, settings)
    source_words, source_probs = segmenter.segment_with_probs(raw, ["ctb6"] * len(raw))
    weights = {name: p.detach().clone() for name, p in torch_module(segmenter.model).named_parameters()}
    _, probs = segmenter.segment_with_probs(raw)  # by the new default criterion
    labels = numpy.concatenate([partial_labels(p, settings.raw_threshold) for p in probs])
    labelled = labels >= 0

    stats = learn_from_raw_text(nlp, segmenter, gold, raw, probs, settings)
    assert stats["raw_steps"] == 15 and 0.5 < stats["labelled_raw_gap_share"] == pytest.approx(labelled.mean())
    _, after = segmenter.segment_with_probs(raw)
    distance_before = numpy.abs(numpy.concatenate(probs)[labelled] - labels[labelled]).mean()
    distance_after = numpy.abs(numpy.concatenate(after)[labelled] - labels[labelled]).mean()
    assert distance_after < distance_before
    module = torch_module(segmenter.model)
    changed = [name for name, p in module.named_parameters() if not torch.equal(p, weights[name])]
    assert changed and all(name.startswith(CRITERION_PARAMETERS) for name in changed)
    words, again = segmenter.segment_with_probs(raw, ["ctb6"] * len(raw))
    assert all(numpy.array_equal(a, b) for a, b in zip(source_words, words))
    assert all(numpy.array_equal(a, b) for a, b in zip(source_probs, again))


@pytest.mark.parametrize(
    "settings, message",
    [
        (FewShotSettings(criterion=""), "need names"),
        (FewShotSettings(steps=-1), "steps and min_steps must be >= 0"),
        (FewShotSettings(learn_rate=0), "learn_rate and criterion_learn_rate must be > 0"),
        (FewShotSettings(passes=0), "passes, learn_rate"),
        (FewShotSettings(raw_steps=-1), "raw_steps must be >= 0"),
        (FewShotSettings(raw_threshold=0.5), "raw_threshold above 0.5"),
    ],
)
def test_settings_out_of_range(settings, message):
    with pytest.raises(ValueError, match=message):
        settings.check()


def test_the_steps_grow_with_a_larger_gold_file():
    settings = FewShotSettings()
    assert settings.steps_for(7_000) == settings.min_steps
    assert settings.steps_for(1_000_000) == 3_000  # 3 passes of 1,000 characters a step
    assert FewShotSettings(steps=5).steps_for(1_000_000) == 5
