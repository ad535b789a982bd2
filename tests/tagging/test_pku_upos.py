"""The PKU tag -> UPOS table and spaCy's attribute_ruler applying it."""
import re
from pathlib import Path

import spacy
from spacy.parts_of_speech import IDS
from spacy.tokens import Doc
from spacy.util import registry

from spacy_cws.tagging.pku_upos import pku_tags, upos_of

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "part-of-speech.md"
UPOS = set(IDS) - {"", "EOL", "SPACE"}


def test_table_has_each_tag_once_with_a_universal_tag():
    tags = [row.tag for row in pku_tags()]
    assert len(tags) == len(set(tags)) == 44
    assert {row.upos for row in pku_tags()} <= UPOS
    assert all(row.meaning_zh and row.meaning for row in pku_tags())


def test_unknown_tag_is_named():
    try:
        upos_of("xx")
    except KeyError as err:
        assert "'xx' is not a PKU part-of-speech tag" in str(err)
    else:
        raise AssertionError("upos_of('xx') returned")


def test_attribute_ruler_sets_pos_from_the_tag():
    nlp = spacy.blank("zh")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.initialize(lambda: [], nlp=nlp, tag_map=registry.misc.get("spacy-cws.pku_tag_map.v1")())
    tags = [row.tag for row in pku_tags()]
    doc = ruler(Doc(nlp.vocab, words=[f"w{i}" for i in range(len(tags))], tags=tags))
    assert [t.pos_ for t in doc] == [row.upos for row in pku_tags()]


def test_the_guide_table_is_the_package_table():
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \| (\w+) \|", GUIDE.read_text(encoding="utf-8"), flags=re.M)
    assert rows == [(row.tag, row.meaning_zh, row.meaning, row.upos) for row in pku_tags()]
