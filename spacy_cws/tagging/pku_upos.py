"""The PKU part-of-speech tags of People's Daily 1998 (PFR) and the UPOS of each.

``pku_upos.tsv`` (in this package) holds one row a tag: the PKU tag, its
Universal Dependencies UPOS, its name in Chinese and in English, and why the
UPOS was chosen where the choice is not plain. It lists the 42 tags of the
PKU annotation rules (Yu Shiwen et al. 2002) and the two PFR January 1998
uses once by mistake (``na``, ``vvn``). The mapping is by tag alone, as
spaCy's attribute_ruler applies a tag map; where UD separates words that one
PKU tag joins (``c``: CCONJ and SCONJ; ``u``: PART and AUX), the UPOS is that
of the most frequent words.

spaCy's ``attribute_ruler`` sets ``token.pos_`` from ``token.tag_`` with the
tag map that ``spacy-cws.pku_tag_map.v1`` gives (configs/pos_tagger.cfg).
"""
import csv
from functools import lru_cache
from pathlib import Path
from typing import Dict, NamedTuple, Tuple

from spacy.util import registry

TABLE = Path(__file__).with_name("pku_upos.tsv")


class PkuTag(NamedTuple):
    """One PKU tag: the tag, its UPOS, its Chinese and English names, and why
    this UPOS (empty where plain)."""

    tag: str
    upos: str
    meaning_zh: str
    meaning: str
    why: str


@lru_cache(maxsize=1)
def pku_tags() -> Tuple[PkuTag, ...]:
    """The rows of ``pku_upos.tsv`` in its order."""
    with TABLE.open(encoding="utf-8", newline="") as stream:
        return tuple(PkuTag(**row) for row in csv.DictReader(stream, delimiter="\t"))


def pku_upos() -> Dict[str, str]:
    """PKU tag -> UPOS."""
    return {row.tag: row.upos for row in pku_tags()}


def upos_of(tag: str) -> str:
    """The UPOS of the PKU tag ``tag``. RAISES KeyError naming the tag for one
    that is not in the table."""
    try:
        return pku_upos()[tag]
    except KeyError:
        raise KeyError(f"{tag!r} is not a PKU part-of-speech tag (the tags are listed in {TABLE})") from None


@registry.misc("spacy-cws.pku_tag_map.v1")
def pku_tag_map() -> Dict[str, Dict[str, str]]:
    """The tag map for spaCy's attribute_ruler (its ``initialize`` takes
    ``tag_map``): ``{PKU tag: {"POS": UPOS}}``."""
    return {tag: {"POS": upos} for tag, upos in pku_upos().items()}
