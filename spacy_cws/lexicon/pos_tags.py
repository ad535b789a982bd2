"""The coarse part-of-speech classes of the word-POS lexicon (Gan & Zhang
2020, "Investigating Self-Attention Network for Chinese Word Segmentation",
section 4.2), shared by the tag sets our lexicons come with.

The paper trains POS embeddings on the source domain's gold tags and looks up
the target-domain lexicon's tags. Our lexicons speak two tag sets: jieba's
``dict.txt`` uses ICTCLAS tags (n, nr, v, ...) and ZX's word_POS corpus uses
the Penn Chinese Treebank's (NN, NR, VV, ...); CTB6 as we have it has no POS.
Both are mapped onto the classes below, so a POS embedding learned from one
tag set serves the other. A word with no tag, or a tag of neither set, is
``X``. The mapping is ours (no library maps ICTCLAS to CTB); it follows the
tag guidelines: ICTCLAS nr/ns/nt/nz and CTB NR are proper names, CTB VA and
JJ are adjectives, etc.
"""
from typing import Optional

COARSE_TAGS = (
    "X",  # unknown: no tag, or a tag of neither set
    "NOUN",
    "PROPN",
    "TIME",
    "VERB",
    "ADJ",
    "ADV",
    "NUM",
    "MEASURE",
    "PRON",
    "FUNC",
    "IDIOM",
    "PUNCT",
)
UNKNOWN_TAG = 0

_CTB = {
    "NN": "NOUN", "NR": "PROPN", "NT": "TIME",
    "VV": "VERB", "VC": "VERB", "VE": "VERB",
    "VA": "ADJ", "JJ": "ADJ",
    "AD": "ADV",
    "CD": "NUM", "OD": "NUM",
    "M": "MEASURE",
    "PN": "PRON", "DT": "PRON",
    "P": "FUNC", "CC": "FUNC", "CS": "FUNC", "DEC": "FUNC", "DEG": "FUNC", "DER": "FUNC",
    "DEV": "FUNC", "AS": "FUNC", "SP": "FUNC", "MSP": "FUNC", "LC": "FUNC", "BA": "FUNC",
    "LB": "FUNC", "SB": "FUNC", "ETC": "FUNC", "IJ": "FUNC", "ON": "FUNC",
    "PU": "PUNCT",
}
# ICTCLAS (jieba) tags; sub-tags fall back to their first letter (nrt -> n...).
_ICTCLAS = {
    "n": "NOUN", "ng": "NOUN", "vn": "NOUN", "an": "NOUN", "s": "NOUN", "f": "NOUN",
    "nr": "PROPN", "nrt": "PROPN", "nrfg": "PROPN", "ns": "PROPN", "nt": "PROPN", "nz": "PROPN",
    "t": "TIME", "tg": "TIME",
    "v": "VERB", "vg": "VERB", "vd": "VERB", "vi": "VERB", "vq": "VERB",
    "a": "ADJ", "ag": "ADJ", "ad": "ADJ", "b": "ADJ", "z": "ADJ",
    "d": "ADV", "df": "ADV", "dg": "ADV",
    "m": "NUM", "mg": "NUM", "mq": "NUM",
    "q": "MEASURE",
    "r": "PRON", "rr": "PRON", "rz": "PRON", "rg": "PRON",
    "p": "FUNC", "c": "FUNC", "u": "FUNC", "y": "FUNC", "e": "FUNC", "o": "FUNC", "h": "FUNC", "k": "FUNC",
    "i": "IDIOM", "l": "IDIOM", "j": "NOUN", "g": "NOUN",
    "x": "PUNCT", "w": "PUNCT",
    "eng": "NOUN",  # jieba.posseg's tag for a Latin word (never in dict.txt)
}
_INDEX = {tag: index for index, tag in enumerate(COARSE_TAGS)}


def coarse_tag(tag: Optional[str]) -> int:
    """The index in COARSE_TAGS of a CTB or ICTCLAS tag; UNKNOWN_TAG (X) for
    None or a tag of neither set. CTB tags are upper case, ICTCLAS lower case,
    so the two never collide; an ICTCLAS sub-tag missing from the table falls
    back to its first letter (e.g. "ul" -> "u")."""
    if not tag:
        return UNKNOWN_TAG
    if tag.islower():
        coarse = _ICTCLAS.get(tag) or _ICTCLAS.get(tag[0])
    else:
        coarse = _CTB.get(tag)
    return _INDEX[coarse] if coarse else UNKNOWN_TAG


def is_known_tag(tag: str) -> bool:
    """Whether ``tag`` is a CTB or ICTCLAS tag (or ICTCLAS sub-tag, e.g. "ul"):
    one coarse_tag maps to a class, at most 4 letters long (ICTCLAS's
    longest, "nrfg"), so that "OS" or "York" are not taken for tags."""
    return len(tag) <= 4 and coarse_tag(tag) != UNKNOWN_TAG
