"""The "prefer" user dictionary of a model without lexicon features: a soft bonus in decoding."""
import pickle

import numpy
import pytest

from spacy_cws.decoding.bmes_tags import B, E, M, S
from spacy_cws.features.character_view import Normaliser
from spacy_cws.segmenter.dictionary_bonus import BOUNDARY, NO_BOUNDARY, add_dictionary_bonus

from ..segmentation_data import SENTENCES, TEXTS
from .test_bmes_tagger import san_crf_nlp  # noqa: F401 (fixture)

TEXT = "他在2009年去了上海浦东"


def test_gap_bonus_marks_the_edges_and_joins_the_inside():
    view = Normaliser()(TEXT)  # units: 他 在 0 年 去 了 上 海 浦 东
    matches = numpy.array([[9, 13], [3, 5], [2, 6]])  # 上海浦东; half of a number run; 2009
    scores = [numpy.zeros((2, len(view) + 1, 2))]
    (bonused,) = add_dictionary_bonus(scores, [view], [[(0, len(view))]], [matches], 1.5, "gaps")
    assert not scores[0].any()  # the input is not changed
    boundary, joined = bonused[0, :, BOUNDARY], bonused[0, :, NO_BOUNDARY]
    assert numpy.flatnonzero(boundary).tolist() == [2, 3, 6, 10] and set(boundary[[2, 3, 6, 10]]) == {1.5}
    assert numpy.flatnonzero(joined).tolist() == [7, 8, 9]
    numpy.testing.assert_array_equal(bonused[1], bonused[0])  # every head


def test_tag_bonus_and_sequence_edges():
    view = Normaliser()(TEXT)
    matches = numpy.array([[0, 1], [9, 13]])
    scores = [numpy.zeros((1, 7, 4)), numpy.zeros((1, 3, 4))]  # a sequence edge inside 上海浦东
    first, second = add_dictionary_bonus(scores, [view], [[(0, 7), (7, 10)]], [matches], 2.0, "bmes")
    assert first[0, 0, S] == 2.0 and numpy.count_nonzero(first) == 1  # 上海浦东 crosses the edge: no bonus
    assert not second.any()
    (whole,) = add_dictionary_bonus([numpy.zeros((1, 10, 4))], [view], [[(0, 10)]], [matches[1:]], 2.0, "bmes")
    assert whole[0, 6, B] == whole[0, 7, M] == whole[0, 8, M] == whole[0, 9, E] == 2.0


def _words(nlp, texts):
    return [[token.text for token in doc] for doc in nlp.pipe(texts)]


@pytest.mark.parametrize("pipeline", ["trained_nlp", "san_crf_nlp"])
def test_prefer_mode_without_a_lexicon_sways_the_model_by_the_bonus(pipeline, request):
    nlp = pickle.loads(pickle.dumps(request.getfixturevalue(pipeline)))
    seg = nlp.get_pipe("gd_segmenter")
    assert not seg.lexicons
    before = _words(nlp, TEXTS)
    assert before == [sentence.split() for sentence in SENTENCES]
    seg.set_user_dictionary_mode("prefer")
    seg.add_words(["法制建设", "公园散步"])
    seg.cfg["user_dictionary_bonus"] = 0.0
    assert _words(nlp, TEXTS) == before
    seg.cfg["user_dictionary_bonus"] = 50.0
    swayed = _words(nlp, TEXTS)
    assert ["上海", "浦东", "开发", "与", "法制建设", "同步"] in swayed
    assert any("公园散步" in words for words in swayed)
    changed = [(b, s) for b, s in zip(before, swayed) if b != s]
    assert len(changed) == 2  # only the sentences holding a dictionary word
    assert all("".join(words) == text for words, text in zip(swayed, TEXTS))
