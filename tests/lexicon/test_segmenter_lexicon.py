"""The segmenter with lexicon channels and hashed trigrams: training, jackknifing, saving."""
import pickle

import pytest
import spacy
import srsly
from spacy.util import fix_random_seed

from spacy_cws.lexicon.match_features import text_fold

from ..segmentation_data import MODEL, SENTENCES, TEXTS, blank_pipeline, make_examples

V2_MODEL = {**MODEL, "@architectures": "spacy-cws.GDTransformer.v2", "trigram_width": 8, "trigram_rows": 512}


def lexicon_pipeline(tmp_path, model=V2_MODEL, **training):
    """A blank segmenter pipeline with the training words (in 4 jackknife
    folds) and a user dictionary as lexicons, and ``training``'s other
    training settings; random generators seeded, so its training does not
    depend on the tests run before it."""
    fix_random_seed(0)
    user_dictionary = tmp_path / "user.txt"
    user_dictionary.write_text("法制建设 3 n\n公园 n\n", encoding="utf-8")
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {
        "training_lexicon": True,
        "lexicons": [str(user_dictionary)],
        "jackknife_folds": 4,
        **training,
    }
    return nlp


def overfit_and_reload(nlp, examples, optimizer, tmp_path, updates, max_loss):
    """Train until the hand segmentation comes out, save, load: the loaded
    pipeline has the same lexicons and words. RETURNS the words."""
    optimizer.learn_rate = 0.003
    for _ in range(updates):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["gd_segmenter"] < max_loss, losses
    words = [[t.text for t in doc] for doc in nlp.pipe(TEXTS)]
    assert words == [sentence.split() for sentence in SENTENCES]
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("gd_segmenter").featurizer.channels == nlp.get_pipe("gd_segmenter").featurizer.channels
    assert [[t.text for t in doc] for doc in loaded.pipe(TEXTS)] == words
    return words


def test_lexicon_pipeline_learns_and_round_trips(tmp_path):
    nlp = lexicon_pipeline(tmp_path)
    examples = make_examples(nlp)
    seg = nlp.get_pipe("gd_segmenter")
    optimizer = nlp.initialize(lambda: examples)  # reads [initialize.components.gd_segmenter]
    assert seg.lexicons == ["training", str(tmp_path / "user.txt")]
    assert seg.model.get_dim("nL") == 26
    words = overfit_and_reload(nlp, examples, optimizer, tmp_path, updates=150, max_loss=0.02)
    from_bytes = spacy.util.load_model_from_config(nlp.config).from_bytes(nlp.to_bytes())
    assert [[t.text for t in doc] for doc in from_bytes.pipe(TEXTS)] == words
    unpickled = pickle.loads(pickle.dumps(nlp))
    assert [[t.text for t in doc] for doc in unpickled.pipe(TEXTS)] == words


def test_training_features_hide_the_words_of_a_sentences_own_fold(tmp_path):
    nlp = lexicon_pipeline(tmp_path)
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"training_lexicon": True, "jackknife_folds": 4}
    examples = make_examples(nlp)
    seg = nlp.get_pipe("gd_segmenter")
    nlp.initialize(lambda: examples)
    training_words = seg.lexicon_words("training")
    # "法制" occurs in one sentence only, so only its own fold's words contain it.
    sentence = next(eg for eg in examples if "法制" in eg.reference.text)
    assert training_words["法制"] == 1 << text_fold(sentence.reference.text, 4)
    _, _, at_inference = seg.training.featurize([sentence.predicted.text], [None], seg.name)
    _, _, in_training = seg.training.example_features([sentence], seg.name)
    flags_column = 4
    at_inference, in_training = at_inference[0][:, flags_column], in_training[0][:, flags_column]
    start = sentence.reference.text.index("法制")
    begins_2 = 1 << 0
    assert at_inference[start] & begins_2
    assert not in_training[start] & begins_2
    # A word also seen in another fold's sentences is still there in training.
    other = next(eg for eg in examples if "城市" in eg.reference.text and "边境" in eg.reference.text)
    own_fold = 1 << text_fold(other.reference.text, 4)
    assert training_words["城市"] & ~own_fold
    _, _, other_features = seg.training.example_features([other], seg.name)
    assert other_features[0][other.reference.text.index("城市"), flags_column] & begins_2


def test_channels_and_bigrams_saved_before_0_3_3_load_the_same(tmp_path):
    """Pipelines saved before spacy-cws 0.3.3 (the shipped packages among them)
    kept each lexicon channel as a JSON object {word: fold mask} and the bigrams
    as [left, right] rows; they load into the packed form with the same features."""
    nlp = lexicon_pipeline(tmp_path, {**V2_MODEL, "bigram_width": 8}, bigram_min_count=1)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    seg = nlp.get_pipe("gd_segmenter")
    featurizer = seg.featurizer
    assert all(isinstance(c["words"], str) for c in featurizer.channels)
    assert [c["name"] for c in seg.cfg["lexicons"]] == seg.lexicons  # only the names in the JSON cfg
    nlp.to_disk(tmp_path / "packed")

    # The oldest format: everything in the cfg, the channels as {word: mask} and the bigrams as pairs.
    old_cfg = srsly.read_json(tmp_path / "packed" / "gd_segmenter" / "cfg")
    del old_cfg["saved_parts"]  # not kept then
    old_cfg["symbols"] = seg.symbols
    old_cfg["criteria"] = seg.criteria
    old_cfg["bigrams"] = [list(pair) for pair in seg.bigrams]
    old_cfg["lexicons"] = [{"name": name, "words": seg.lexicon_words(name)} for name in seg.lexicons]
    nlp.to_disk(tmp_path / "old")
    srsly.write_json(tmp_path / "old" / "gd_segmenter" / "cfg", old_cfg)
    (tmp_path / "old" / "gd_segmenter" / "featurizer").unlink()

    packed, old = (spacy.load(tmp_path / name).get_pipe("gd_segmenter") for name in ("packed", "old"))
    assert old.featurizer.channels == packed.featurizer.channels == featurizer.channels
    assert old.bigrams == packed.bigrams == seg.bigrams
    assert old.symbols == packed.symbols == seg.symbols
    assert seg.lexicon_words("training")["法制"] > 0 and old.lexicon_words("training") == seg.lexicon_words("training")
    for features in zip(
        *(pipe.training.featurize(TEXTS, [None] * len(TEXTS), pipe.name)[2] for pipe in (seg, packed, old))
    ):
        assert all((features[0] == other).all() for other in features[1:])
    with pytest.raises(KeyError, match="no lexicon channel 'jieba'"):
        seg.lexicon_words("jieba")
