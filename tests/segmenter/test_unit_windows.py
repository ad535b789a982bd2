"""A long text is featurized and scored a window at a time (issue 18): the
windows cover every model sequence once, and the words are those of one pass."""
import pickle

import pytest
from hypothesis import given, strategies as st

from spacy_cws.corpora.formats import read_segmented
from spacy_cws.segmenter import windowed_inference
from spacy_cws.segmenter.unit_windows import unit_windows

from ..conftest import shipped_pipeline


@given(st.lists(st.lists(st.integers(1, 40), max_size=6), max_size=8), st.integers(1, 60))
def test_windows_hold_every_sequence_once_in_order_and_at_most_size_units(lengths, size):
    windows = list(unit_windows(lengths, size))
    seen = [(text, index) for window in windows for text, first, end in window for index in range(first, end)]
    assert seen == [(text, index) for text, text_lengths in enumerate(lengths) for index in range(len(text_lengths))]
    for window in windows:
        assert all(end > first for _, first, end in window)
        units = sum(sum(lengths[text][first:end]) for text, first, end in window)
        single = len(window) == 1 and window[0][2] - window[0][1] == 1
        assert units <= size or single
    # Windows are filled: the next window's first sequence would not have fitted.
    for window, following in zip(windows, windows[1:]):
        units = sum(sum(lengths[text][first:end]) for text, first, end in window)
        text, first, _ = following[0]
        assert units + lengths[text][first] > size


def test_a_window_needs_room_for_a_unit():
    with pytest.raises(ValueError, match="at least 1 unit"):
        list(unit_windows([[3]], 0))


@pytest.fixture(scope="module")
def ctb6_texts(shared_data):
    sentences = ["".join(s.words) for s in read_segmented(shared_data / "ctb6" / "test.seg", "sighan")]
    long_text = "".join(sentences[:300]) + " 2019年 Color OS 发布了\n" + "".join(sentences[300:400])
    return sentences[400:460] + [long_text, "", "  ", "今天天气很好"]


def words_by_window_size(nlp, texts, size, monkeypatch):
    monkeypatch.setattr(windowed_inference, "WINDOW_UNITS", size)
    return [words.tolist() for words in nlp.get_pipe("gd_segmenter").segment_texts(texts)]


def test_small_windows_give_the_words_of_one_pass_with_jiebas_lexicon(ctb6_texts, monkeypatch):
    """zh_cws_gd_sm (jieba's dictionary and training words as lexicon features,
    float32): windows of 300 units cut the long text into about 60 parts."""
    nlp = shipped_pipeline("zh_cws_gd_sm", "float32")
    one_pass = words_by_window_size(nlp, ctb6_texts, 10**9, monkeypatch)
    assert words_by_window_size(nlp, ctb6_texts, 300, monkeypatch) == one_pass
    assert len(one_pass[-4]) > 5000 and one_pass[-3:] == [[], [], [[0, 2], [2, 4], [4, 5], [5, 6]]]


def test_small_windows_keep_the_prefer_bonus(trained_nlp, ctb6_texts, monkeypatch):
    """A model without a lexicon takes "prefer" words as a score bonus, which
    windows must place on the right sequences."""
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.add_words(["天气很好", "经济", "发展"])
    segmenter.set_user_dictionary_mode("prefer")
    assert segmenter.user_words.prefers_by_bonus()
    one_pass = words_by_window_size(nlp, ctb6_texts, 10**9, monkeypatch)
    assert words_by_window_size(nlp, ctb6_texts, 50, monkeypatch) == one_pass
