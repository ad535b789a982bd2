"""Properties of segmentation on any text: no character is lost or moved,
whitespace is never part of a word, and the words of a text do not depend on
the batch it is in nor on the pipeline's shape (component or tokenizer)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacy_cws.segmenter.segmenter_tokenizer import segmenter_as_tokenizer

from .strategies import TEXT


def _assert_text_kept(doc, text):
    assert doc.text == text
    for token in doc:
        assert token.text == text[token.idx : token.idx + len(token.text)]
        assert token.is_space or not any(c.isspace() for c in token.text)


def _words(docs):
    return [[token.text for token in doc] for doc in docs]


@pytest.fixture(scope="module")
def tokenizer_nlp(trained_nlp):
    """The tiny trained segmenter as the pipeline's tokenizer."""
    return segmenter_as_tokenizer(trained_nlp)


@given(text=TEXT)
def test_trained_segmenter_keeps_every_character(trained_nlp, text):
    _assert_text_kept(trained_nlp(text), text)


@given(text=TEXT)
def test_zh_cws_gd_keeps_every_character(zh_cws_gd_nlp, text):
    _assert_text_kept(zh_cws_gd_nlp(text), text)


@given(texts=st.lists(TEXT, max_size=6), batch_size=st.integers(1, 7))
def test_words_do_not_depend_on_the_batch(trained_nlp, texts, batch_size):
    alone = _words(trained_nlp(text) for text in texts)
    assert _words(trained_nlp.pipe(texts, batch_size=batch_size)) == alone


@given(texts=st.lists(TEXT, max_size=6), batch_size=st.integers(1, 7))
def test_tokenizer_shape_gives_the_component_words(trained_nlp, tokenizer_nlp, texts, batch_size):
    expected = _words(trained_nlp.pipe(texts))
    docs = list(tokenizer_nlp.tokenizer.pipe(texts, batch_size=batch_size))
    for doc, text in zip(docs, texts):
        _assert_text_kept(doc, text)
    assert _words(docs) == expected
