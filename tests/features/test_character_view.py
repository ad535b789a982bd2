import unicodedata

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from spacy_cws.features.character_view import LATIN_SYMBOL, NUMBER_SYMBOL, Normaliser


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
    # Full-width letters are Latin letters, a run even unfolded; full-width digits are not ASCII digits.
    assert Normaliser(fold_width=False)(text).symbols == LATIN_SYMBOL + NUMBER_SYMBOL
    assert Normaliser(collapse_runs=False)(text).symbols == "AB12"


def test_a_grapheme_cluster_is_one_unit_seen_as_its_first_character():
    """A variation selector (or a ZWJ, a tag, ...) stays with its base
    character: the model sees the text without it; a flag is one unit."""
    text = "我\ufe0f们是中\U000E0100国人，他\ufe0e说🇨🇳好"
    view = Normaliser()(text)
    assert view.symbols == "我们是中国人,他说🇨好"
    assert _unit_texts(text, view) == [
        "我\ufe0f", "们", "是", "中\U000E0100", "国", "人", "，", "他\ufe0e", "说", "🇨🇳", "好"
    ]
    assert view.clusters.tolist() == [[0, 2], [4, 6], [9, 11], [12, 14]]


def test_a_flag_is_a_word_of_its_own():
    text = "国旗🇨🇳🇺🇸好"
    view = Normaliser()(text)
    assert _unit_texts(text, view) == ["国", "旗", "🇨🇳", "🇺🇸", "好"]
    assert view.alone.tolist() == [False, False, True, True, True]


def test_opencc_changes_only_the_view():
    text = "漢語臺灣"
    normaliser = Normaliser(opencc="tw2s")
    view = normaliser(text)
    assert view.symbols == "汉语台湾"
    assert _unit_texts(text, view) == list(text)


def test_unknown_opencc_config_is_a_clear_error():
    with pytest.raises(ValueError, match="OpenCC"):
        Normaliser(opencc="no-such-config")


# The reference definition of runs, written independently of letter_runs.py's
# single pattern: each character is classified on its own (unicodedata, and
# regex's script property of one character), then runs are grown left to right.
_SCRIPT_SYMBOLS = {
    "Latin": "X", "Greek": "α", "Cyrillic": "а", "Armenian": "ա", "Georgian": "ა", "Hebrew": "א", "Arabic": "ا",
    "Devanagari": "क", "Thai": "ก", "Hangul": "가", "Hiragana": "あ", "Katakana": "ア",
}


def _script(character):
    """The script of a letter: a listed one, "other", or None for Han/Common/Inherited."""
    for script in [*_SCRIPT_SYMBOLS, "Han", "Common", "Inherited"]:
        if regex.fullmatch(rf"\p{{{script}}}", character):
            return script if script in _SCRIPT_SYMBOLS else None
    return "other"


_JOINERS = "'\u2019-\u2010\xad\u200c\u200d"  # apostrophes, hyphens, soft hyphen, ZWNJ, ZWJ
_ASCII_LETTERS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SHARP_FOLLOWERS = {*_ASCII_LETTERS, *"0123456789_#"}  # after "C#" none of these may follow ("" is the text's end)
_PLUS_FOLLOWERS = {*_ASCII_LETTERS, *"_+#"}


def _is_regional_indicator(character):
    return "\U0001F1E6" <= character <= "\U0001F1FF"


def _reference_runs(text):
    """(start, end, symbol or None) of each run, leftmost first."""
    runs, i, n = [], 0, len(text)

    def is_letter(k, script):
        return k < n and unicodedata.category(text[k]).startswith("L") and _script(text[k]) == script

    while i < n:
        c = text[i]
        if c in _ASCII_LETTERS and text[i + 1 : i + 2] == "#" and text[i + 2 : i + 3] not in _SHARP_FOLLOWERS:
            j = i + 2
            runs.append((i, j, "X"))  # a language name: C#, F#
        elif _is_regional_indicator(c) and i + 1 < n and _is_regional_indicator(text[i + 1]):
            j = i + 2
            runs.append((i, j, None))  # a flag
        elif c in "0123456789":
            j = i + 1
            while j < n and (
                text[j].isdigit() and text[j] in "0123456789"
                or text[j] in ".·" and j + 1 < n and text[j + 1] in "0123456789"
            ):
                j += 1
            j += j < n and text[j] == "%"
            runs.append((i, j, NUMBER_SYMBOL))
        elif unicodedata.category(c).startswith("L") and _script(c) or c in "_.":
            script = "Latin" if c in "_." else _script(c)
            kana = script in ("Hiragana", "Katakana")
            j = i + 1
            while j < n:
                d = text[j]
                if is_letter(j, script) or script == "Latin" and d in "_." or unicodedata.category(d).startswith("M"):
                    j += 1
                elif kana and d in "\u30fc\uff70":
                    j += 1
                elif (d in _JOINERS or script == "Latin" and d == "·") and is_letter(j + 1, script):
                    j += 1
                else:
                    break
            if script == "Latin" and text[j : j + 2] == "++" and text[j + 2 : j + 3] not in _PLUS_FOLLOWERS:
                j += 2  # a language name: C++
            runs.append((i, j, _SCRIPT_SYMBOLS.get(script)))
        elif unicodedata.category(c) == "Cc" and not c.isspace():
            j = i + 1
            while j < n and unicodedata.category(text[j]) == "Cc" and not text[j].isspace():
                j += 1
            runs.append((i, j, None))
        else:
            i += 1
            continue
        i = j
    return runs


def _reference_view(normaliser, text):
    """The definition the vectorised Normaliser must match: a unit is a
    non-space character, grown over each following non-space character that
    lies in the same grapheme cluster of the text (\\X) or, with
    collapse_runs, the same run; its symbol is its first character's, or its
    run's symbol if it starts a run."""
    normalised = normaliser.normalise_characters(text)
    runs = _reference_runs(normalised) if normaliser.collapse_runs else []
    symbol_at = {start: symbol for start, _, symbol in runs}
    glued = {j for start, end, _ in runs for j in range(start + 1, end)}
    glued |= {j for m in regex.finditer(r"\X", text) for j in range(m.start() + 1, m.end())}
    symbols, starts, ends, i = [], [], [], 0
    while i < len(normalised):
        if normalised[i].isspace():
            i += 1
            continue
        end = i + 1
        while end < len(normalised) and end in glued and not normalised[end].isspace():
            end += 1
        symbols.append(symbol_at.get(i) or normalised[i])
        starts.append(i)
        ends.append(end)
        i = end
    return "".join(symbols), starts, ends


TRICKY = [
    "", " ", "...", "Pokémon Müller Straße cafe\u0301 naïve Łódź İstanbul ﬁle",
    "Москва안녕하세요Ελλάδα",
    "القاهرة ירושלים กรุงเทพ नमस्ते ひらがなカタカナーｱｲｰ Երևան თბილისი ㄅㄆㄇ",
    "state-of-the-art can't -a a- a--b Jean·Paul 乔治·w·布什",
    "世\x1b\x00界\x7f", "Ⅱ卷 a\u0301\u0301b \u0301x", "a.b.c 1.2.3 ·5 5· 3%% %3 ｘ＿ｙ", "１２．５％的人",
    "\ud800孤立代理项", "\U0001F600\u3000\u3000末",
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u200b\u202f\u205f\ufeff字",
    "Ａ．Ｂ．Ｃ公司", "0.5.", "_",
    "می\u200cخواهم Zwei\xadsilben a\u200cb x\u200dy a\u200c中 \u200cb a\xad\xadb",
    "我\ufe0f们 他\ufe0e说 中\U000E0100文 1\ufe0f\u20e3",
    "国旗🇨🇳🇺🇸🇯 👨\u200d👩\u200d👧好 \u0600a \u0600 b",
    "C++和C#、F#、g++、Notepad++、C++11、a+++b、ABC#、#C#、x#y、Ｃ＋＋",
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


TEXT_PARTS = st.sampled_from(
    ["上海浦东", "开发", " ", "\u3000", "\n", "ABC", "can't", "3.5%", "１２", "Москва", "한국어", "\x00\x01",
     "e\u0301", "臺灣", "ｆｕｌｌ", "·", "-", "\t", "中\ufe0f", "🇨🇳", "\u200c", "\u0600"]
)


@given(
    st.lists(st.lists(TEXT_PARTS, max_size=8).map("".join), max_size=8), st.sampled_from([None, "t2s"]), st.booleans()
)
def test_views_of_a_batch_are_the_views_of_each_text(texts, opencc, collapse_runs):
    """Normaliser.views builds the views of many texts at once; each equals
    the view of its text alone (offsets, spaces, runs and words-of-their-own
    at the texts' edges included)."""
    normaliser = Normaliser(opencc=opencc, collapse_runs=collapse_runs)
    for batched, text in zip(normaliser.views(texts), texts, strict=True):
        alone = normaliser(text)
        assert batched.symbols == alone.symbols
        for name in ("starts", "ends", "spaced", "alone", "runs", "clusters"):
            assert getattr(batched, name).tolist() == getattr(alone, name).tolist(), name
            assert getattr(batched, name).dtype == getattr(alone, name).dtype, name
