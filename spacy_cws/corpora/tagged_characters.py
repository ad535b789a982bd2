"""Read character-per-line NER corpora (Resume NER, MSRA NER) into Docs.

The files hold one ``CHARACTER TAG`` line per character and a blank line
after each sentence. Tags are ``O`` or ``PREFIX-LABEL`` with the prefixes of
the BIO (MSRA), BIOES and BMES (Resume) schemes: B begins an entity, I / M
continue it, E ends it and S is a one-character entity.

spaCy's own ``conll_ner`` converter reads BIO/BILUO only and joins tokens with
spaces (the Doc text would no longer be the sentence), so this reader is ours.
Each sentence becomes a Doc whose tokens are its characters with no spaces
between them: every entity aligns with tokens, none is lost.
"""
import lzma
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Tuple, Union

from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from .formats import CorpusFormatError

BEGIN, INSIDE, END, SINGLE = "B", "I", "E", "S"
# The prefix of every scheme, mapped to its role.
PREFIX_ROLES = {"B": BEGIN, "I": INSIDE, "M": INSIDE, "E": END, "S": SINGLE}


@dataclass
class TaggedSentence:
    """One sentence: the 1-based line number of its first character, its
    characters and its entities as (start, end, label) character offsets.
    orphans: tags that continued no entity (I/M/E after O, E or another
    label) and so began one, as conlleval reads them."""

    line_no: int
    characters: List[str]
    entities: List[Tuple[int, int, str]] = field(default_factory=list)
    orphans: int = 0


def read_tagged_characters(path: Union[str, Path]) -> Iterator[TaggedSentence]:
    """Sentences of a character-per-line tagged file (UTF-8; xz-compressed when
    its name ends in .xz, as MSRA train in ../shared/data).

    RAISES FileNotFoundError for a missing file and CorpusFormatError (naming
    file and line) for a line that is not ``CHARACTER TAG`` or a tag with an
    unknown prefix. Ill-formed sequences are read as conlleval reads them: B
    or S while an entity is open ends it there (BIO writes no E), an entity
    open at a sentence end ends there, and I/M/E that continue no entity
    begin one, counted in ``orphans`` (Resume NER train has two: ORGs cut
    by a sentence break, continued at lines 62392 and 64414).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"NER corpus file not found: {path}")
    sentence = None
    open_entity = None  # (start, label) of the entity being read
    with (lzma.open(path, "rb") if path.suffix == ".xz" else path.open("rb")) as stream:
        for line_no, raw in enumerate(stream, start=1):
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as err:
                raise CorpusFormatError(path, line_no, f"not UTF-8 ({err.reason})") from None
            if not line.strip():
                if sentence is not None:
                    _close(sentence, open_entity)
                    yield sentence
                sentence, open_entity = None, None
                continue
            fields = line.split()
            if len(fields) != 2 or len(fields[0]) != 1:
                raise CorpusFormatError(path, line_no, f"expected 'CHARACTER TAG', got {line!r}")
            character, tag = fields
            if sentence is None:
                sentence = TaggedSentence(line_no, [])
            position = len(sentence.characters)
            sentence.characters.append(character)
            if tag == "O":
                _close(sentence, open_entity, position)
                open_entity = None
                continue
            prefix, _, label = tag.partition("-")
            role = PREFIX_ROLES.get(prefix)
            if role is None or not label:
                raise CorpusFormatError(path, line_no, f"unknown tag {tag!r}: use O or B/I/M/E/S-LABEL")
            if role in (BEGIN, SINGLE):
                _close(sentence, open_entity, position)
                open_entity = (position, label)
            elif open_entity is None or open_entity[1] != label:
                _close(sentence, open_entity, position)
                open_entity = (position, label)
                sentence.orphans += 1
            if role in (END, SINGLE):
                _close(sentence, open_entity, position + 1)
                open_entity = None
    if sentence is not None:
        _close(sentence, open_entity)
        yield sentence


def _close(sentence: TaggedSentence, open_entity, end: int = None) -> None:
    """End the open entity (if any) at ``end`` (default: the sentence end)."""
    if open_entity is not None:
        start, label = open_entity
        sentence.entities.append((start, len(sentence.characters) if end is None else end, label))


def sentence_doc(vocab: Vocab, sentence: TaggedSentence) -> Doc:
    """A Doc of the sentence's characters (no spaces) with its entities set."""
    doc = Doc(vocab, words=sentence.characters, spaces=[False] * len(sentence.characters))
    doc.ents = [Span(doc, start, end, label=label) for start, end, label in sentence.entities]
    return doc


def entity_counts(sentences: List[TaggedSentence]) -> Dict[str, int]:
    """Entities per label, for the conversion report (every one is in the Docs)."""
    counts: Dict[str, int] = {}
    for sentence in sentences:
        for _, _, label in sentence.entities:
            counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))
