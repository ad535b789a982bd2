"""What the model made of each occurrence of a candidate word (adaptation/model_agreement.py)."""
import numpy
import pytest

from spacy_cws.adaptation.model_agreement import word_agreement


def test_agreement_by_hand():
    text = "张小凡看着张小凡笑"
    # The model's words: 张|小凡|看着|张小凡|笑.
    words = numpy.array([[0, 1], [1, 3], [3, 5], [5, 8], [8, 9]], dtype=numpy.int64)
    probs = numpy.full(len(text) - 1, 0.02, dtype=numpy.float32)
    probs[[0, 2, 4, 7]] = 0.99  # boundaries after 张, 凡, 着, 凡
    probs[5] = 0.3  # 张|小 inside the second 张小凡: not cut, but doubted
    result = word_agreement([text], [words], [probs], ["张小凡", "看着", "小凡"], confidence=0.9)
    assert (result["张小凡"].occurrences, result["张小凡"].made, result["张小凡"].confident) == (2, 1, 0)
    assert result["张小凡"].cut_inside == 1
    # Sure of 张|小凡 in the first (0.99), doubtful of the second's inner gap (0.3).
    assert result["张小凡"].confident_cut == 1
    assert result["看着"].confident_cut == 0
    assert result["张小凡"].unsure_share == 1.0
    assert (result["看着"].occurrences, result["看着"].made, result["看着"].confident) == (1, 1, 1)
    assert result["看着"].unsure_share == 0.0
    # 小凡 is a word once (after 张|) and inside 张小凡 the other time: not made, not cut inside.
    assert (result["小凡"].occurrences, result["小凡"].made, result["小凡"].cut_inside) == (2, 1, 0)


@pytest.fixture(scope="module")
def dl_labelled(zh_cws_gd_sm_nlp, dl_gold):
    """The DL novel's text, and the shipped model's words and gap probabilities on it."""
    raw = ["".join(words) for words in dl_gold]
    return (raw, *zh_cws_gd_sm_nlp.get_pipe("gd_segmenter").segment_with_probs(raw))


def test_the_shipped_model_doubts_new_names_and_knows_common_words(dl_labelled):
    """On the DL novel, which it never saw, the model is almost never sure of the names it meets most
    (it cuts 戴沐白 inside at times), and sure of common words."""
    result = word_agreement(*dl_labelled, ["戴沐白", "赵无极", "自己", "他们"], confidence=0.9)
    for name in ("戴沐白", "赵无极"):
        assert result[name].occurrences >= 60
        assert result[name].confident < 0.05 * result[name].occurrences, name
    assert result["戴沐白"].cut_inside > 0
    for word in ("自己", "他们"):
        assert result[word].occurrences >= 100
        assert result[word].unsure_share < 0.1, word
        assert result[word].confident_cut == 0, word


def test_the_shipped_model_is_sure_to_cut_phrases_not_new_names(dl_labelled):
    """What confident_cut_share (lexicon_mining.py) tells apart on the DL novel: phrases that raw
    text statistics take for words, which the model cuts with confidence (点了点头 as 点了|点头), and
    names it has never seen, whose inner gaps it doubts."""
    result = word_agreement(*dl_labelled, ["点了点头", "摇了摇头", "戴沐白", "赵无极"], confidence=0.9)
    for phrase in ("点了点头", "摇了摇头"):
        assert result[phrase].occurrences >= 3, phrase
        assert result[phrase].confident_cut >= 0.5 * result[phrase].occurrences, phrase
    for name in ("戴沐白", "赵无极"):
        assert result[name].confident_cut < 0.5 * result[name].occurrences, name


def test_absent_candidates_have_no_occurrences():
    probs = [numpy.array([0.01], dtype=numpy.float32)]
    result = word_agreement(["没有"], [numpy.array([[0, 2]])], probs, ["张小凡"], confidence=0.9)
    assert result["张小凡"].occurrences == 0 and result["张小凡"].unsure_share == pytest.approx(0.0)
