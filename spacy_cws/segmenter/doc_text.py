"""The text of a character-tokenized Doc, without a Token object per character.

``Doc.text`` joins the text of every token; for the Docs of the character
pretokenizer (a token per character) that is a Python object per character:
a third of ``nlp.pipe``'s time for zh_cws_gd_sm on CTB6 test. The
pretokenizer keeps the text it was given in ``doc.user_data`` (``keep_text``),
and the segmenter reads it there (``doc_text``) and drops it once the Doc
holds words (``forget_text``). A Doc's text never changes (retokenizing keeps
it), so the kept copy is the Doc's text; it is checked against the Doc's
length in characters, and a Doc made another way has its text read from it.
"""
from spacy.tokens import Doc

TEXT_KEY = ("spacy-cws", "text")


def keep_text(doc: Doc, text: str) -> Doc:
    """Keep ``text`` (the Doc's text) with ``doc``. RETURNS doc."""
    doc.user_data[TEXT_KEY] = text
    return doc


def doc_text(doc: Doc) -> str:
    """``doc.text``: the kept copy where it fits the Doc, else read from the tokens."""
    text = doc.user_data.get(TEXT_KEY)
    length = doc[-1].idx + len(doc[-1].text_with_ws) if len(doc) else 0
    return text if isinstance(text, str) and len(text) == length else doc.text


def forget_text(doc: Doc) -> None:
    """Drop the kept copy (the segmenter's words hold the text now)."""
    doc.user_data.pop(TEXT_KEY, None)
