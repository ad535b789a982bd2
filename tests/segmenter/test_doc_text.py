"""The character Doc keeps its text for the segmenter, which reads it without
a Token per character and drops it once the Doc holds words."""
import spacy

from spacy_cws.segmenter.char_pretokenizer import CharPretokenizer
from spacy_cws.segmenter.doc_text import TEXT_KEY, doc_text

TEXT = "今天 北京\u3000天气很好。\nGood  morning!"


def test_pretokenized_doc_keeps_its_text_and_the_segmenter_drops_it(trained_nlp):
    doc = CharPretokenizer(spacy.blank("zh").vocab)(TEXT)
    assert doc.user_data[TEXT_KEY] == TEXT == doc.text == doc_text(doc)
    segmented = trained_nlp(TEXT)
    assert segmented.text == TEXT and TEXT_KEY not in segmented.user_data


def test_a_kept_text_that_does_not_fit_the_doc_is_not_used():
    vocab = spacy.blank("zh").vocab
    doc = CharPretokenizer(vocab)(TEXT)
    doc.user_data[TEXT_KEY] = TEXT[:-1]  # e.g. copied onto another Doc
    assert doc_text(doc) == TEXT
    assert doc_text(spacy.tokens.Doc(vocab, words=["你", "好"], spaces=[False, False])) == "你好"  # made elsewhere


def test_every_character_is_a_token_with_or_without_whitespace():
    """Text without whitespace (most Chinese text) takes a shorter way to the
    same Doc: a token per character, combining marks and emoji parts too."""
    vocab = spacy.blank("zh").vocab
    for text in ["上海浦东开发与法制建设同步。", "e\u0301👍🏽ＡＢ1.5%", "", "中 文", TEXT]:
        doc = CharPretokenizer(vocab)(text)
        assert doc.text == doc_text(doc) == text
        assert [t.text for t in doc if not t.is_space] == [c for c in text if not c.isspace()]
        assert all(t.whitespace_ in ("", " ") for t in doc)
