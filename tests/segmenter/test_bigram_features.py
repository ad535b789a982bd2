import pytest
import spacy

from spacy_cws.features.sequence_layout import SequenceLayout
from spacy_cws.features.symbol_ids import SymbolIds
from spacy_cws.features.symbol_specials import UNK

from ..segmentation_data import MODEL, SENTENCES, blank_pipeline, make_examples, overfit

TEXTS = ["".join(sentence.split()) for sentence in SENTENCES]
BIGRAM_MODEL = {**MODEL, "bigram_width": 8}


def test_bigram_vocabulary_counts_whole_texts_with_edges():
    symbols = sorted(set("".join(TEXTS)))
    bigrams = SymbolIds(symbols).frequent_bigrams(TEXTS, min_count=2)
    # "城市" occurs 3 times, "。</s>" ends 5 sentences, "<s>新" starts one only.
    assert ("城", "市") in bigrams and ("。", "</s>") in bigrams
    assert ("<s>", "新") not in bigrams
    pairs = [(a, b) for text in TEXTS for a, b in zip("\x02" + text, text + "\x03")]
    seen = {pair: pairs.count(pair) for pair in set(pairs)}
    edges = {"<s>": "\x02", "</s>": "\x03"}
    assert all(seen[(edges.get(a, a), edges.get(b, b))] >= 2 for a, b in bigrams)
    assert len(bigrams) == sum(count >= 2 for count in seen.values())


def test_features_give_each_symbol_its_unigram_and_both_bigrams():
    ids = SymbolIds(list("边境城市"), [("境", "城"), ("城", "市"), ("<s>", "边")])
    features = ids.features("边境城市镇", SequenceLayout([5]), [0])

    def unigram(symbol):
        return ids.unigram_ids(symbol)[0]

    assert features[:, 0].tolist() == [unigram("边"), unigram("境"), unigram("城"), unigram("市"), UNK]
    left, right = features[:, 1], features[:, 2]
    assert (left[1:] == right[:-1]).all()  # the bigram across a gap is shared by its two symbols
    assert left[0] != UNK and left[2] != UNK and left[3] != UNK
    assert left[1] == UNK and right[4] == UNK  # ("边","境") unseen; ("镇","</s>") has an unknown symbol
    # A chunk edge is a sequence edge: ("<s>", "城") is not ("境", "城").
    _, second = SequenceLayout([2, 2]).split(ids.features("边境城市", SequenceLayout([2, 2]), [0, 0]))
    assert second[0, 1] == UNK


def test_symbols_must_be_single_characters():
    with pytest.raises(ValueError, match="single characters"):
        SymbolIds(["城市"])


def _bigram_pipeline(min_count=1, model=BIGRAM_MODEL):
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": min_count}
    return nlp


def test_bigram_pipeline_trains_saves_and_reloads(tmp_path):
    nlp = _bigram_pipeline()
    overfit(nlp, make_examples(nlp), updates=80, max_loss=0.05)
    segmenter = nlp.get_pipe("gd_segmenter")
    assert ("<s>", "新") in segmenter.bigrams
    assert segmenter.model.get_dim("nB") == len(segmenter.bigrams) + 4
    predicted = [[t.text for t in doc] for doc in nlp.pipe(TEXTS)]
    assert predicted == [s.split() for s in SENTENCES]
    nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert [[t.text for t in doc] for doc in reloaded.pipe(TEXTS)] == predicted


@pytest.mark.parametrize("min_count,model", [(0, BIGRAM_MODEL), (2, MODEL)])
def test_bigram_settings_must_agree(min_count, model):
    nlp = _bigram_pipeline(min_count, model)
    with pytest.raises(ValueError, match="bigram_min_count"):
        nlp.initialize(lambda: make_examples(nlp))


def test_negative_min_count_is_an_error():
    nlp = _bigram_pipeline(min_count=-1)
    with pytest.raises(ValueError, match="bigram_min_count"):
        nlp.initialize(lambda: make_examples(nlp))
