import numpy
import pytest
from spacy.util import get_words_and_spaces
from spacy.vocab import Vocab

from spacy_cws.segmenter.doc_from_spans import doc_from_spans


@pytest.mark.parametrize(
    "text",
    ["今天 天气  很好 ", "  前导\n\n尾随\t", "", " ", "a\u3000b\u00a0 c", "x  y   z ", "词"],
)
def test_same_words_and_spaces_as_spacy(text):
    """Whitespace-separated words give the tokens spaCy's get_words_and_spaces gives."""
    words = text.split()
    spans, position = [], 0
    for word in words:
        start = text.index(word, position)
        spans.append((start, start + len(word)))
        position = start + len(word)
    doc = doc_from_spans(Vocab(), text, numpy.asarray(spans, dtype=numpy.int64).reshape(-1, 2))
    expected_words, expected_spaces = get_words_and_spaces(words, text)
    assert [t.text for t in doc] == expected_words
    assert [bool(t.whitespace_) for t in doc] == expected_spaces
    assert doc.text == text


@pytest.mark.parametrize("words", [["今天", "天气", "很", "好"], list("新华社北京电"), ["Good", "morning", "！"]])
def test_words_that_cover_the_text_end_to_end_give_spacys_tokens(words):
    """No whitespace: the words themselves, none with trailing whitespace."""
    text = "".join(words)
    ends = numpy.cumsum([len(word) for word in words])
    spans = numpy.stack([ends - [len(word) for word in words], ends], axis=1)
    doc = doc_from_spans(Vocab(), text, spans)
    assert ([t.text for t in doc], [bool(t.whitespace_) for t in doc]) == get_words_and_spaces(words, text)
    assert doc.text == text
