"""The segmenter with lexicon channels and hashed trigrams: training, jackknifing, saving."""
import pickle

import spacy

from spacy_cws.lexicon.match_features import text_fold

from ..segmentation_data import MODEL, SENTENCES, TEXTS, blank_pipeline, make_examples, overfit

V2_MODEL = {**MODEL, "@architectures": "spacy-cws.GDTransformer.v2", "trigram_width": 8, "trigram_rows": 512}


def lexicon_pipeline(tmp_path):
    user_dictionary = tmp_path / "user.txt"
    user_dictionary.write_text("法制建设 3 n\n公园 n\n", encoding="utf-8")
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": V2_MODEL, "max_length": 64, "batch_units": 256, "jackknife_folds": 4})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {
        "training_lexicon": True,
        "lexicons": [str(user_dictionary)],
    }
    return nlp


def test_lexicon_pipeline_learns_and_round_trips(tmp_path):
    nlp = lexicon_pipeline(tmp_path)
    examples = make_examples(nlp)
    seg = nlp.get_pipe("gd_segmenter")
    optimizer = nlp.initialize(lambda: examples)  # reads [initialize.components.gd_segmenter]
    assert seg.lexicons == ["training", str(tmp_path / "user.txt")]
    assert seg.model.get_dim("nL") == 26
    optimizer.learn_rate = 0.003
    for _ in range(150):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["gd_segmenter"] < 0.02, losses
    words = [[t.text for t in doc] for doc in nlp.pipe(TEXTS)]
    assert words == [sentence.split() for sentence in SENTENCES]

    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("gd_segmenter").cfg["lexicons"] == seg.cfg["lexicons"]
    assert [[t.text for t in doc] for doc in loaded.pipe(TEXTS)] == words
    from_bytes = spacy.util.load_model_from_config(nlp.config).from_bytes(nlp.to_bytes())
    assert [[t.text for t in doc] for doc in from_bytes.pipe(TEXTS)] == words
    unpickled = pickle.loads(pickle.dumps(nlp))
    assert [[t.text for t in doc] for doc in unpickled.pipe(TEXTS)] == words


def test_training_features_hide_the_words_of_a_sentences_own_fold(tmp_path):
    nlp = lexicon_pipeline(tmp_path)
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"training_lexicon": True}
    examples = make_examples(nlp)
    seg = nlp.get_pipe("gd_segmenter")
    nlp.initialize(lambda: examples)
    training_words = seg.cfg["lexicons"][0]["words"]
    # "法制" occurs in one sentence only, so only its own fold's words contain it.
    sentence = next(eg for eg in examples if "法制" in eg.reference.text)
    assert training_words["法制"] == 1 << text_fold(sentence.reference.text, 4)
    _, _, at_inference = seg._featurize([sentence.predicted.text], [None])
    _, _, in_training = seg._featurize_examples([sentence])
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
    _, _, other_features = seg._featurize_examples([other])
    assert other_features[0][other.reference.text.index("城市"), flags_column] & begins_2
