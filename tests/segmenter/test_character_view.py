import re

import pytest

from spacy_cws.segmenter.character_view import LATIN_SYMBOL, NUMBER_SYMBOL, Normaliser


def _unit_texts(text, view):
    return [text[s:e] for s, e in zip(view.starts.tolist(), view.ends.tolist())]


@pytest.mark.parametrize(
    "text",
    [
        "中国十四个边境开放城市",
        "ｉＰｈｏｎｅ　１２售价５９９９元，增长３．５％。",
        "U.S. 总统 Obama 于2009年上任",
        "  \t前后有空白\n\n",
        "emoji 😀👍🏽 和 \u2028 分隔",
        "",
    ],
)
def test_view_is_reversible(text):
    """Units cover every non-whitespace character exactly once, in order."""
    view = Normaliser(opencc="t2s")(text)
    covered = "".join(_unit_texts(text, view))
    assert covered == "".join(text.split())
    assert all(text[s:e].strip() == text[s:e] for s, e in zip(view.starts, view.ends))
    assert list(view.starts) == sorted(view.starts)


def test_width_folding_and_runs():
    text = "ｉＰｈｏｎｅ　１２售价３．５％"
    view = Normaliser()(text)
    assert view.symbols == "".join([LATIN_SYMBOL, NUMBER_SYMBOL, "售", "价", NUMBER_SYMBOL])
    assert _unit_texts(text, view) == ["ｉＰｈｏｎｅ", "１２", "售", "价", "３．５％"]
    # U+3000 is whitespace after folding: the next unit is marked as spaced
    assert view.spaced.tolist() == [False, True, False, False, False]


def test_switches_off():
    text = "ＡＢ12"
    assert Normaliser(fold_width=False, collapse_runs=False)(text).symbols == "ＡＢ12"
    assert Normaliser(fold_width=False)(text).symbols == "ＡＢ" + NUMBER_SYMBOL
    assert Normaliser(collapse_runs=False)(text).symbols == "AB12"


def test_opencc_changes_only_the_view():
    text = "漢語臺灣"
    normaliser = Normaliser(opencc="tw2s")
    view = normaliser(text)
    assert view.symbols == "汉语台湾"
    assert _unit_texts(text, view) == list(text)


def test_unknown_opencc_config_is_a_clear_error():
    with pytest.raises(ValueError, match="OpenCC"):
        Normaliser(opencc="no-such-config")


_REFERENCE_SCANNERS = {
    True: re.compile(r"(?P<number>[0-9]+(?:[.·][0-9]+)*%?)|(?P<latin>[A-Za-z_.]+)|(?P<char>\S)"),
    False: re.compile(r"(?P<char>\S)"),
}


def _reference_view(normaliser, text):
    """The definition the vectorised Normaliser must match: one regex scan."""
    normalised = normaliser.normalise_characters(text)
    matches = list(_REFERENCE_SCANNERS[normaliser.collapse_runs].finditer(normalised))
    symbols = "".join(
        {"number": NUMBER_SYMBOL, "latin": LATIN_SYMBOL}.get(m.lastgroup, m.group()) for m in matches
    )
    return symbols, [m.start() for m in matches], [m.end() for m in matches]


TRICKY = [
    "", " ", "...", "a.b.c 1.2.3 ·5 5· 3%% %3 ｘ＿ｙ", "１２．５％的人", "\ud800孤立代理项", "\U0001F600\u3000\u3000末",
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u200b\u202f\u205f\ufeff字", "Ａ．Ｂ．Ｃ公司", "0.5.", "_",
]


@pytest.mark.parametrize("collapse_runs", [True, False])
def test_vectorised_view_matches_the_regex_definition(collapse_runs, shared_data):
    """Real lines (CTB6, SXU with private-use characters, CityU full-width
    traditional) and edge cases give the same units as the regex definition."""
    lines = []
    for path in ("ctb6/test.seg", "sighan2008_sxu/test.txt", "sighan2005/cityu/test.utf8"):
        lines += (shared_data / path).read_text(encoding="utf8").splitlines()[:300]
    normaliser = Normaliser(collapse_runs=collapse_runs)
    for text in TRICKY + lines:
        view = normaliser(text)
        assert (view.symbols, view.starts.tolist(), view.ends.tolist()) == _reference_view(normaliser, text), text
