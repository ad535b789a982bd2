"""Ensembles of segmenting pipelines (distillation/ensemble.py, gap_decisions.py)."""
import pickle
import re

import numpy
import pytest
import spacy

from spacy_cws.distillation.ensemble import SegmenterEnsemble, load_ensemble, pipeline_names, with_soft_targets
from spacy_cws.distillation.gap_decisions import mean_decision, word_cuts, words_from_cuts

# Latin words, numbers, a URL and an e-mail address beside Chinese, and whitespace of every kind.
MIXED = [
    "他在2009年买了一部iPhone 15手机，售价5999元。",
    "增长了3.14%，见https://www.apple.com/cn/iphone/的说明。",
    "邮件发到abc.def@mail.example.com或者致电010-12345678",
    "  北京\u3000上海\t广州 ",
    "",
    "。",
]
CJK_ONLY = re.compile(r"[\u4e00-\u9fff，。、；：？！“”（）《》]+")


def _dev_texts(shared_data, n):
    lines = (shared_data / "ctb6" / "dev.seg").read_text(encoding="utf8").splitlines()
    return ["".join(line.split()) for line in lines[:n] if line.strip()]


def _tokens(doc):
    return [(token.text, token.whitespace_) for token in doc]


def test_word_cuts_round_trip():
    text = " 上海 浦东开发\u3000与法制 "
    words = numpy.array([[1, 3], [4, 6], [6, 8], [9, 10], [10, 12]])
    in_word, cuts = word_cuts(len(text), words)
    assert "".join(c for c, inside in zip(text, in_word) if not inside) == "  \u3000 " and cuts.shape == (12,)
    numpy.testing.assert_array_equal(words_from_cuts(in_word, cuts), words)
    empty = word_cuts(0, numpy.zeros((0, 2)))
    assert words_from_cuts(*empty).shape == (0, 2)


def test_mean_decision_keeps_what_every_member_keeps_whole():
    # "ab.cd" (5 characters) one word for both members, though the mean is above 0.5 inside it.
    whole = numpy.array([[0, 5]])
    probs = [numpy.array([0.9, 0.8, 0.1, 0.9], numpy.float32), numpy.array([0.7, 0.1, 0.1, 0.9], numpy.float32)]
    words, mean = mean_decision(5, [whole, whole], probs)
    numpy.testing.assert_array_equal(words, whole)
    numpy.testing.assert_allclose(mean, [0.8, 0.45, 0.1, 0.9])
    # Where a member cuts, the mean decides: cut at 0 (0.8) and 3 (0.9), not at 1 (0.45).
    cut = numpy.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]])
    words, _ = mean_decision(5, [whole, cut], probs)
    numpy.testing.assert_array_equal(words, [[0, 1], [1, 4], [4, 5]])


def test_ensemble_of_one_is_the_pipeline(zh_cws_gd_sm_nlp, shared_data):
    texts = _dev_texts(shared_data, 300) + MIXED
    ensemble = SegmenterEnsemble([zh_cws_gd_sm_nlp], ["zh_cws_gd_sm"])
    for doc, own in zip(ensemble.pipe(texts, batch_size=64), zh_cws_gd_sm_nlp.pipe(texts), strict=True):
        assert _tokens(doc) == _tokens(own)
        numpy.testing.assert_array_equal(doc._.gap_probs, own._.gap_probs)


def test_ensemble_of_two_averages_their_probabilities(zh_cws_gd_sm_nlp, zh_cws_gd_nlp, shared_data):
    texts = _dev_texts(shared_data, 60) + MIXED
    members = [zh_cws_gd_sm_nlp, zh_cws_gd_nlp]
    ensemble = SegmenterEnsemble(members, ["zh_cws_gd_sm", "zh_cws_gd"])
    docs = list(ensemble.pipe(texts, batch_size=16))
    member_docs = [list(nlp.pipe(texts)) for nlp in members]
    differs = 0
    for text, doc, small, large in zip(texts, docs, *member_docs, strict=True):
        assert doc.text == text
        mean = ((small._.gap_probs.astype(numpy.float64) + large._.gap_probs) / 2).astype(numpy.float32)
        numpy.testing.assert_array_equal(doc._.gap_probs, mean)
        if CJK_ONLY.fullmatch(text):  # nothing kept whole by a constraint: the mean decides every gap
            cuts = word_cuts(len(text), numpy.array([[t.idx, t.idx + len(t)] for t in doc]))[1]
            numpy.testing.assert_array_equal(cuts, mean > 0.5)
        differs += _tokens(doc) not in (_tokens(small), _tokens(large))
    assert differs  # the ensemble is neither member
    # No Latin word, number, URL or e-mail address is cut, though inside the URL the mean is above 0.5.
    words = [token.text for doc in docs[-len(MIXED):] for token in doc]
    for whole in ("iPhone", "15", "5999", "3.14%", "https://www.apple.com/cn/iphone/", "abc.def@mail.example.com"):
        assert whole in words
    url_text = MIXED[1]
    start = url_text.index("https")
    url_probs = docs[-len(MIXED) + 1]._.gap_probs[start : start + len("https://www.apple.com/cn/iphone/") - 1]
    assert (url_probs > 0.5).any()


def test_soft_targets_are_the_mean_where_the_words_follow_it(zh_cws_gd_sm_nlp, zh_cws_gd_nlp):
    ensemble = SegmenterEnsemble([zh_cws_gd_sm_nlp, zh_cws_gd_nlp])
    plain, url_text = "上海浦东开发与法制建设同步", MIXED[1]
    doc, url_doc = ensemble.pipe([plain, url_text])
    mean = doc._.gap_probs
    with_soft_targets(doc)
    numpy.testing.assert_array_equal(doc._.gap_targets, mean)
    assert doc._.gap_probs is None
    # Inside the URL the mean says "cut" at some gaps, the words keep it whole: the targets follow the words.
    url = "https://www.apple.com/cn/iphone/"
    start = url_text.index(url)
    inner = slice(start, start + len(url) - 1)
    url_mean = url_doc._.gap_probs.copy()
    assert (url_mean[inner] > 0.5).any()
    with_soft_targets(url_doc)
    targets = url_doc._.gap_targets
    overruled = numpy.zeros(len(url_mean), dtype=bool)
    overruled[inner] = url_mean[inner] > 0.5
    assert not targets[overruled].any()
    numpy.testing.assert_array_equal(targets[~overruled], url_mean[~overruled])


def test_members_must_segment():
    blank = spacy.blank("zh")
    blank.add_pipe("sentencizer")
    with pytest.raises(ValueError, match="'blank' cannot be an ensemble member: .*no gd_segmenter.*sentencizer"):
        SegmenterEnsemble([blank], ["blank"])
    with pytest.raises(ValueError, match="at least one pipeline"):
        SegmenterEnsemble([])
    with pytest.raises(ValueError, match="empty pipeline name"):
        pipeline_names("zh_cws_gd,,zh_cws_gd_sm")
    assert pipeline_names("zh_cws_gd, zh_cws_gd_sm") == ["zh_cws_gd", "zh_cws_gd_sm"]
    with pytest.raises(OSError, match="no_such_pipeline"):
        load_ensemble(["zh_cws_gd_sm", "no_such_pipeline"])


def test_criterion_is_set_on_the_multi_criteria_members(trained_nlp):
    """Members are loaded here: setting a criterion changes a member (never the shared shipped pipelines)."""
    tiny = pickle.loads(pickle.dumps(trained_nlp))  # one criterion
    with pytest.raises(ValueError, match="'zh_cws_gd': Unknown criterion 'sxu' .* ctb6, pku"):
        SegmenterEnsemble([tiny, spacy.load("zh_cws_gd")], ["tiny", "zh_cws_gd"], "sxu")
    with pytest.raises(ValueError, match="no pipeline of the ensemble \\(tiny\\) has a multi-criteria"):
        SegmenterEnsemble([tiny], ["tiny"], "ctb6")
    large = spacy.load("zh_cws_gd")
    text = "上海浦东开发与法制建设同步"
    SegmenterEnsemble([large], ["zh_cws_gd"], "pku")
    by_pku = spacy.load("zh_cws_gd")
    doc = by_pku.make_doc(text)
    doc._.cws_criterion = "pku"
    assert _tokens(next(SegmenterEnsemble([large]).pipe([text]))) == _tokens(by_pku(doc))
