"""A tokenizer that makes every non-whitespace character a token.

The trainable ``gd_segmenter`` then turns characters into words. Whitespace
stays in the Doc as spaCy keeps it (a single space as the previous token's
trailing whitespace, anything else as whitespace tokens), so ``doc.text`` is
always the input. The Doc keeps the text for the segmenter (doc_text.py).
"""
import re
from typing import Callable

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import DummyTokenizer, registry
from spacy.vocab import Vocab

from ..features.character_view import non_space_positions
from .doc_from_spans import doc_from_spans
from .doc_text import keep_text

# Python's \s on str is str.isspace(): the whitespace non_space_positions leaves out.
_WHITESPACE = re.compile(r"\s")


class CharPretokenizer(DummyTokenizer):
    """Splits a text into single characters, keeping whitespace."""

    def __init__(self, vocab: Vocab):
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        if not isinstance(text, str):
            raise TypeError(f"CharPretokenizer takes a str, got {type(text).__name__}")
        if _WHITESPACE.search(text) is None:  # most Chinese text: every character a token
            return keep_text(Doc(self.vocab, words=list(text), spaces=[False] * len(text)), text)
        starts = non_space_positions(text)
        return keep_text(doc_from_spans(self.vocab, text, numpy.stack([starts, starts + 1], axis=1)), text)


@registry.tokenizers("spacy-cws.CharPretokenizer.v1")
def create_char_pretokenizer() -> Callable[[Language], CharPretokenizer]:
    def make_tokenizer(nlp: Language) -> CharPretokenizer:
        return CharPretokenizer(nlp.vocab)

    return make_tokenizer
