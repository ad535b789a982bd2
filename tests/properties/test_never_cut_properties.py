"""No word of any script is cut inside: for any text, no token boundary falls
between two letters of one non-Han script, nor between a letter and its
combining marks, through the component, the tokenizer shape and a shipped pipeline."""
import unicodedata

import pytest
import regex
from hypothesis import given

from spacy_cws.segmenter.segmenter_tokenizer import segmenter_as_tokenizer

from .strategies import SCRIPT_TEXT, format_texts

_UNSEGMENTED = ("Han", "Common", "Inherited")


_SCRIPTS = ["Han", "Common", "Inherited", "Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Hebrew", "Arabic",
            "Devanagari", "Thai", "Hangul", "Hiragana", "Katakana"]


def _script(character):
    """The Unicode script of one character, read on its own ("other" beyond the list)."""
    return next((name for name in _SCRIPTS if regex.fullmatch(rf"\p{{{name}}}", character)), "other")


def _must_not_cut(before, after):
    """Whether a word boundary between these two characters would cut a word."""
    if not unicodedata.category(before).startswith("L"):
        return False
    if unicodedata.category(after).startswith("M"):
        return True
    same_script = unicodedata.category(after).startswith("L") and _script(before) == _script(after)
    return same_script and _script(before) not in _UNSEGMENTED


def _assert_no_cut_inside(doc, text):
    assert doc.text == text
    boundaries = {token.idx for token in doc} | {token.idx + len(token.text) for token in doc}
    for i in range(1, len(text)):
        assert not (i in boundaries and _must_not_cut(text[i - 1], text[i])), (text, i, [t.text for t in doc])


@given(text=SCRIPT_TEXT)
def test_trained_segmenter_cuts_no_word_inside(trained_nlp, text):
    _assert_no_cut_inside(trained_nlp(text), text)


@pytest.fixture(scope="module")
def tokenizer_nlp(trained_nlp):
    return segmenter_as_tokenizer(trained_nlp)


@given(text=SCRIPT_TEXT)
def test_tokenizer_shape_cuts_no_word_inside(tokenizer_nlp, text):
    _assert_no_cut_inside(tokenizer_nlp.tokenizer(text), text)


@given(text=SCRIPT_TEXT)
def test_zh_cws_gd_sm_cuts_no_word_inside(zh_cws_gd_sm_nlp, text):
    _assert_no_cut_inside(zh_cws_gd_sm_nlp(text), text)


def _assert_words_and_clusters_whole(doc, text, gaps):
    """No token boundary at ``gaps`` (inside words) nor inside a grapheme
    cluster, and (where the Doc has them) gap probabilities of 0 there."""
    assert doc.text == text
    inside = set(gaps) | {i for m in regex.finditer(r"\X", text) for i in range(m.start() + 1, m.end())}
    boundaries = {token.idx for token in doc} | {token.idx + len(token.text) for token in doc}
    assert not inside & boundaries, (text, [t.text for t in doc])
    if doc.has_extension("gap_probs") and doc._.gap_probs is not None:
        assert all(doc._.gap_probs[i - 1] == 0 for i in inside), (text, doc._.gap_probs.tolist())


@given(case=format_texts())
def test_trained_segmenter_keeps_format_characters_and_clusters_whole(trained_nlp, case):
    _assert_words_and_clusters_whole(trained_nlp(case[0]), *case)


@given(case=format_texts())
def test_tokenizer_shape_keeps_format_characters_and_clusters_whole(tokenizer_nlp, case):
    _assert_words_and_clusters_whole(tokenizer_nlp.tokenizer(case[0]), *case)


@given(case=format_texts())
def test_zh_cws_gd_sm_keeps_format_characters_and_clusters_whole(zh_cws_gd_sm_nlp, case):
    _assert_words_and_clusters_whole(zh_cws_gd_sm_nlp(case[0]), *case)


@given(case=format_texts())
def test_zh_cws_gd_keeps_format_characters_and_clusters_whole(zh_cws_gd_nlp, case):
    _assert_words_and_clusters_whole(zh_cws_gd_nlp(case[0]), *case)
