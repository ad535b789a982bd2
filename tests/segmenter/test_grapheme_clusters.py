"""Grapheme clusters that no word boundary may cut (features/grapheme_clusters.py)."""
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_cws.features import grapheme_clusters as cluster_module
from spacy_cws.features.grapheme_clusters import grapheme_clusters

# Characters that join clusters: combining marks, ZWJ, skin tones, variation
# selectors, regional indicators, Hangul jamo, CR LF; beside CJK and ASCII.
PIECES = [
    "e", "\u0301", "\u200d", "👨", "👩", "🏽", "\ufe0f", "🇨", "🇳", "\u1100", "\u1161", "\u11a8", "\r", "\n",
    "中", "国", " ", "1",
]


def _reference(text):
    return [(m.start(), m.end()) for m in regex.finditer(r"\X", text) if m.end() - m.start() > 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_clusters_are_the_multi_character_matches_of_x(text):
    assert [tuple(span) for span in grapheme_clusters(text).tolist()] == _reference(text)


def test_known_clusters():
    text = "国e\u0301👨\u200d👩🇨🇳\r\n中"
    assert grapheme_clusters(text).tolist() == [[1, 3], [3, 6], [6, 8], [8, 10]]
    assert grapheme_clusters("中国人").shape == (0, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join), st.integers(1, 8))
def test_reading_in_blocks_finds_the_same_clusters(text, block):
    """Long texts are read block by block, cut only at sure cluster boundaries."""
    saved = cluster_module.CLUSTER_BLOCK
    cluster_module.CLUSTER_BLOCK = block
    try:
        assert [tuple(span) for span in grapheme_clusters(text).tolist()] == _reference(text)
    finally:
        cluster_module.CLUSTER_BLOCK = saved


# The edges of the characters that skip the \X scan (line feeds, printable
# ASCII, CJK punctuation up to U+3029, CJK ideographs, full-width ASCII) and
# their neighbours that join clusters or are controls: CR (CR LF is one
# cluster), U+302A-U+302F are ideographic tone marks (Extend), U+FF9E/U+FF9F
# half-width sound marks (Extend).
EDGES = [
    "\n", "\r", "\x1f", " ", "~", "\x7f", "\u3000", "\u3001",
    "\u3029", "\u302a", "\u302f", "\u4e00", "\u9fff", "\uff01", "\uff5e", "\uff9e", "\u0301", "a",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(EDGES), max_size=30).map("".join))
def test_texts_of_single_character_clusters_agree_with_x(text):
    assert [tuple(span) for span in grapheme_clusters(text).tolist()] == _reference(text)


def test_a_tone_mark_joins_its_ideograph():
    assert grapheme_clusters("中\u302a国，。ＡＢ").tolist() == [[0, 2]]
