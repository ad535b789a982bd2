"""The segmenter with Gan & Zhang 2020's word-POS attention (word slots), for the
GD-Transformer and the BMES tagger: training, the POS in the saved lexicon,
replacement by POS in training only, saving and loading."""
import numpy
import pytest
import spacy

from spacy_cws.lexicon.pos_tags import COARSE_TAGS
from spacy_cws.lexicon.word_slots import POSITIONS, SLOT_TAG_BITS, SLOT_TAG_MASK

from ..segmentation_data import SENTENCES, make_examples
from .test_segmenter_lexicon import V2_MODEL, lexicon_pipeline, overfit_and_reload

SLOTS = 4
WORD_MODEL = {**V2_MODEL, "word_slots": SLOTS, "word_width": 16, "word_rows": 1024}
BMES_MODEL = {
    "@architectures": "spacy-cws.BMESTagger.v2", "unigram_width": 16, "bigram_width": 0, "width": 32, "depth": 2,
    "n_heads": 4, "ff_width": 64, "dropout": 0.0, "word_slots": SLOTS, "word_width": 16, "word_rows": 1024,
}
SLOT_COLUMNS = slice(11, 11 + SLOTS)


@pytest.mark.parametrize("model", [WORD_MODEL, BMES_MODEL], ids=["gd", "bmes"])
def test_word_attention_learns_and_round_trips(tmp_path, model):
    # Without jackknifing or replacement the training features equal those at
    # inference (training words by their embeddings, 法制建设 by its POS), so an
    # overfit model reproduces its training words exactly.
    nlp = lexicon_pipeline(tmp_path, model, jackknife_folds=0, word_replacement_threshold=0.0)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    seg = nlp.get_pipe("gd_segmenter")
    user_channel = seg.featurizer.channels[1]
    assert user_channel["tags"].split("\n") == ["n", "n"]  # 法制建设 3 n / 公园 n
    overfit_and_reload(nlp, examples, optimizer, tmp_path, updates=300, max_loss=0.05)


def test_slots_carry_the_lexicon_pos_and_training_words_only_have_embeddings(tmp_path):
    nlp = lexicon_pipeline(tmp_path, WORD_MODEL, word_replacement_threshold=0.0)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    seg = nlp.get_pipe("gd_segmenter")
    text = "法制建设在公园"  # 法制建设: user dictionary only; 公园, 法制, 建设: training words
    features = seg.training.featurize([text], [None], seg.name)[2][0]
    assert features.shape == (len(text), 11 + SLOTS)
    first = features[0, SLOT_COLUMNS]  # 法: B of 法制建设 (longest first), then B of 法制
    tag, position = divmod(int(first[0] & SLOT_TAG_MASK) - 1, len(POSITIONS))
    assert (COARSE_TAGS[tag], POSITIONS[position]) == ("NOUN", "B")
    assert first[0] >> SLOT_TAG_BITS == 0  # not a training word: its POS only
    assert first[1] >> SLOT_TAG_BITS > 0  # 法制 is a training word: its word embedding
    park = features[text.index("公园"), SLOT_COLUMNS]
    assert park[0] >> SLOT_TAG_BITS > 0 and COARSE_TAGS[(int(park[0] & SLOT_TAG_MASK) - 1) // 4] == "NOUN"


def test_training_draws_replacements_and_inference_keeps_only_trained_words(tmp_path):
    # t = 1.5: a word seen once is always its POS (its embedding never trains),
    # 城市 (3 times) is its POS in training with probability sqrt(1.5 / 3).
    nlp = lexicon_pipeline(tmp_path, WORD_MODEL, word_replacement_threshold=1.5, jackknife_folds=0)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    seg = nlp.get_pipe("gd_segmenter")
    training = seg.featurizer.channels[0]
    assert dict(zip(training["words"].split("\n"), training["counts"]))["城市"] == 3
    example = next(eg for eg in examples if "边境" in eg.reference.text)
    text = example.reference.text
    city, border = text.index("城市"), text.index("边境")

    def embedded(features, at):
        return bool((features[at, SLOT_COLUMNS] >> SLOT_TAG_BITS > 0).any())

    at_inference = seg.training.featurize([text], [None], seg.name)[2][0]
    assert embedded(at_inference, city) and not embedded(at_inference, border)
    assert (seg.training.featurize([text], [None], seg.name)[2][0] == at_inference).all()  # deterministic
    numpy.random.seed(0)
    draws = [embedded(seg.training.example_features([example], seg.name)[2][0], city) for _ in range(40)]
    assert 0 < sum(draws) < 40
    in_training = seg.training.example_features([example], seg.name)[2][0]
    assert (in_training[:, SLOT_COLUMNS] & SLOT_TAG_MASK == at_inference[:, SLOT_COLUMNS] & SLOT_TAG_MASK).all()


def test_a_target_domain_lexicon_brings_its_pos_in_prefer_mode(tmp_path):
    """Gan & Zhang 2020's setting: a word-POS lexicon added at inference (here in the
    ZX file format of prepare's train_words_pos.txt) gives its words' tags."""
    from spacy_cws.segmenter.user_dictionary_setup import add_user_dictionary

    nlp = lexicon_pipeline(tmp_path, WORD_MODEL)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    seg = nlp.get_pipe("gd_segmenter")
    text = "张小凡祭出法宝"
    before = seg.training.featurize([text], [None], seg.name)[2][0][:, SLOT_COLUMNS]
    (tmp_path / "zx.txt").write_text("张小凡 12 NR\n法宝 30 NN\n公园 2 VV\n", encoding="utf-8")
    assert add_user_dictionary(nlp, tmp_path / "zx.txt", "prefer") == 3
    after = seg.training.featurize([text], [None], seg.name)[2][0][:, SLOT_COLUMNS]
    assert not (before[0] & SLOT_TAG_MASK).any()
    assert [COARSE_TAGS[(int(after[i, 0] & SLOT_TAG_MASK) - 1) // 4] for i in (0, 5)] == ["PROPN", "NOUN"]
    assert seg.cfg["user_tags"] == {"张小凡": "NR", "法宝": "NN", "公园": "VV"}
    park = seg.training.featurize(["公园"], [None], seg.name)[2][0][0, SLOT_COLUMNS]
    assert COARSE_TAGS[(int(park[0] & SLOT_TAG_MASK) - 1) // 4] == "VERB"  # the user's tag wins
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline").get_pipe("gd_segmenter")
    assert loaded.cfg["user_tags"] == seg.cfg["user_tags"]
    seg.remove_words(["张小凡"])
    assert "张小凡" not in seg.cfg["user_tags"]


def test_a_tagger_tags_every_training_word_so_untagged_means_no_tag(tmp_path):
    """training_word_tagger = "jieba": training words jieba's dictionary lacks
    (一百九十多亿, iPhone) get jieba.posseg's tag instead of class X, and the
    training channel's tags win over the other channels'."""
    tagged = lexicon_pipeline(tmp_path, WORD_MODEL, word_replacement_threshold=0.0)
    tagged.config["initialize"]["components"]["gd_segmenter"]["training_word_tagger"] = "jieba"
    untagged = lexicon_pipeline(tmp_path, WORD_MODEL, word_replacement_threshold=0.0)
    for nlp in (tagged, untagged):
        examples = make_examples(nlp)
        nlp.initialize(lambda: examples)
    training = tagged.get_pipe("gd_segmenter").featurizer.channels[0]
    tags = dict(zip(training["words"].split("\n"), training["tags"].split("\n")))
    assert all(tags.values()) and len(tags) == len({w for s in SENTENCES for w in s.split()})
    assert (tags["一百九十多亿"], tags["iPhone"], tags["公园"]) == ("m", "eng", "n")
    assert "tags" not in untagged.get_pipe("gd_segmenter").featurizer.channels[0]

    def first_slot_class(nlp, text, word):
        slots = nlp.get_pipe("gd_segmenter").training.featurize([text], [None], "gd_segmenter")[2][0][:, SLOT_COLUMNS]
        return COARSE_TAGS[(int(slots[text.index(word), 0] & SLOT_TAG_MASK) - 1) // len(POSITIONS)]

    text = "总值一百九十多亿元"
    assert first_slot_class(tagged, text, "一百九十多亿") == "NUM"
    assert first_slot_class(untagged, text, "一百九十多亿") == "X"


def test_an_unknown_training_word_tagger_is_named_in_the_error(tmp_path):
    nlp = lexicon_pipeline(tmp_path, WORD_MODEL)
    nlp.config["initialize"]["components"]["gd_segmenter"]["training_word_tagger"] = "hanlp"
    examples = make_examples(nlp)
    with pytest.raises(ValueError, match="training_word_tagger must be one of \\['jieba'\\]"):
        nlp.initialize(lambda: examples)


def test_a_training_word_tagger_without_word_slots_is_an_error(tmp_path):
    nlp = lexicon_pipeline(tmp_path)  # V2_MODEL: no word slots
    nlp.config["initialize"]["components"]["gd_segmenter"]["training_word_tagger"] = "jieba"
    examples = make_examples(nlp)
    with pytest.raises(ValueError, match="word_slots > 0"):
        nlp.initialize(lambda: examples)
