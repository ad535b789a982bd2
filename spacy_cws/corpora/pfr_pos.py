"""People's Daily 1998 (PFR) with its gold PKU tags, as Docs for spaCy's tagger.

Each paragraph (a line of ``199801.txt``) is one Doc: its words are PFR's
words, joined without spaces (the Doc's text is the paragraph's text), each
with ``token.tag_`` its PKU tag and ``token.pos_`` that tag's UPOS
(spacy_cws/tagging/pku_upos.tsv). A compound name keeps its inner words with
their own tags (``[中国/ns  政府/n]nt`` is 中国/ns, 政府/n): the words are
PKU-segmented words, and the outer ``nt`` spans words, not a word. The
paragraph's date (the first eight digits of its id) chooses its split.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Iterator, List, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..tagging.pku_upos import pku_upos
from .formats import ENCODINGS, CorpusFormatError, pfr_tagged_words, read_text_lines

SPLITS = ("train", "dev", "test")


@dataclass
class TaggedParagraph:
    """One PFR paragraph: its 1-based line number, its date (``YYYYMMDD``),
    its words and their PKU tags."""

    line_no: int
    day: str
    words: List[str]
    tags: List[str]


def read_pfr_tagged(path: Union[str, Path]) -> Iterator[TaggedParagraph]:
    """Yield the paragraphs of a PFR file (GBK), in file order; blank lines and
    ids alone are skipped.

    RAISES FileNotFoundError for a missing file (at call time) and, while
    iterating, CorpusFormatError naming the file and line for bytes that are
    not GBK, a line without its paragraph id, a token not of the form
    word/TAG, or a tag that is not a PKU tag."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"PFR file not found: {path}")
    return _read(path)


def _read(path: Path) -> Iterator[TaggedParagraph]:
    known = pku_upos()
    for line_no, text in read_text_lines(path, encoding=ENCODINGS["pfr"]):
        tokens = text.split()
        tagged = pfr_tagged_words(tokens, path, line_no) if tokens else []
        if not tagged:
            continue
        unknown = sorted({tag for _, tag in tagged} - known.keys())
        if unknown:
            raise CorpusFormatError(path, line_no, f"tag(s) {', '.join(unknown)} are not PKU part-of-speech tags")
        words, tags = (list(column) for column in zip(*tagged))
        yield TaggedParagraph(line_no, tokens[0][:8], words, tags)


def split_of(day: str, dev_days: Collection[str], test_days: Collection[str]) -> str:
    """The split of a paragraph dated ``day``: ``test`` for the test days,
    ``dev`` for the dev days, else ``train``."""
    return "test" if day in test_days else "dev" if day in dev_days else "train"


def tagged_doc(vocab: Vocab, paragraph: TaggedParagraph) -> Doc:
    """The paragraph as a Doc of its words (no spaces between them), with
    ``tag_`` the PKU tag and ``pos_`` its UPOS."""
    upos = pku_upos()
    spaces = [False] * len(paragraph.words)
    pos = [upos[tag] for tag in paragraph.tags]
    return Doc(vocab, words=paragraph.words, spaces=spaces, tags=paragraph.tags, pos=pos)
