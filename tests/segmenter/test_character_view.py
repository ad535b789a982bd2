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
    assert view.symbols == [LATIN_SYMBOL, NUMBER_SYMBOL, "售", "价", NUMBER_SYMBOL]
    assert _unit_texts(text, view) == ["ｉＰｈｏｎｅ", "１２", "售", "价", "３．５％"]
    # U+3000 is whitespace after folding: the next unit is marked as spaced
    assert view.spaced.tolist() == [False, True, False, False, False]


def test_switches_off():
    text = "ＡＢ12"
    assert Normaliser(fold_width=False, collapse_runs=False)(text).symbols == ["Ａ", "Ｂ", "1", "2"]
    assert Normaliser(fold_width=False)(text).symbols == ["Ａ", "Ｂ", NUMBER_SYMBOL]
    assert Normaliser(collapse_runs=False)(text).symbols == ["A", "B", "1", "2"]


def test_opencc_changes_only_the_view():
    text = "漢語臺灣"
    normaliser = Normaliser(opencc="tw2s")
    view = normaliser(text)
    assert view.symbols == list("汉语台湾")
    assert _unit_texts(text, view) == list(text)


def test_unknown_opencc_config_is_a_clear_error():
    with pytest.raises(ValueError, match="OpenCC"):
        Normaliser(opencc="no-such-config")
