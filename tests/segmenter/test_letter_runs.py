"""Runs never cut inside (features/letter_runs.py) and the never-cut patterns (unbroken_spans.py):
every script's words whole, and one linear pass over any run of characters."""
import pytest
import regex

from spacy_cws.features.letter_runs import RUN_KINDS, find_runs
from spacy_cws.segmenter.unbroken_spans import (
    DEFAULT_PATTERNS,
    EARLIER_DEFAULT_PATTERNS,
    PatternSpans,
    upgraded_patterns,
)
from spacy_cws.segmenter.settings import SegmenterSettings


def _runs(text):
    starts, ends, kinds = find_runs(text)
    return [(text[s:e], RUN_KINDS[k]) for s, e, k in zip(starts.tolist(), ends.tolist(), kinds.tolist())]


def test_words_of_every_script_are_one_run():
    text = (
        "Pokémon和cafe\u0301、Łódź、ﬁle、Москва、안녕하세요、Ελλάδα、القاهرة、ירושלים、"
        "กรุงเทพ、नमस्ते、ひらがな、カタカナー、Երևան、თბილისი"
    )
    assert _runs(text) == [
        ("Pokémon", "latin"), ("cafe\u0301", "latin"), ("Łódź", "latin"), ("ﬁle", "latin"), ("Москва", "cyrillic"),
        ("안녕하세요", "hangul"), ("Ελλάδα", "greek"), ("القاهرة", "arabic"), ("ירושלים", "hebrew"), ("กรุงเทพ", "thai"),
        ("नमस्ते", "devanagari"), ("ひらがな", "hiragana"), ("カタカナー", "katakana"), ("Երևան", "armenian"),
        ("თბილისი", "georgian"),
    ]


def test_joiners_stay_between_letters_of_one_script():
    assert _runs("state-of-the-art can't Jean·Paul -a b- c--d Pokémonカード 乔治·w·布什") == [
        ("state-of-the-art", "latin"), ("can't", "latin"), ("Jean·Paul", "latin"), ("a", "latin"), ("b", "latin"),
        ("c", "latin"), ("d", "latin"), ("Pokémon", "latin"), ("カード", "katakana"), ("w", "latin"),
    ]


def test_format_characters_join_letters_of_one_script():
    """Soft hyphen, ZWNJ (Persian) and ZWJ are written inside words: between
    letters of one script they join them; elsewhere they join nothing."""
    assert _runs("می\u200cخواهم Zwei\xadsilben a\u200cb x\u200dy a\u200c中 \u200cb a\xad\xadb a\u200cд") == [
        ("می\u200cخواهم", "arabic"), ("Zwei\xadsilben", "latin"), ("a\u200cb", "latin"), ("x\u200dy", "latin"),
        ("a", "latin"), ("b", "latin"), ("a", "latin"), ("b", "latin"), ("a", "latin"), ("д", "cyrillic"),
    ]


def test_language_names_and_flags_are_runs():
    """"C++", "C#" and "F#" are Latin words; a pair of regional indicators is
    a flag, a run of its own kind (a word of its own)."""
    assert _runs("我学C++和C#，F#、g++与Notepad++，C++11，a+++b，ABC#，x#y") == [
        ("C++", "latin"), ("C#", "latin"), ("F#", "latin"), ("g++", "latin"), ("Notepad++", "latin"), ("C++", "latin"),
        ("11", "number"), ("a", "latin"), ("b", "latin"), ("ABC", "latin"), ("x", "latin"), ("y", "latin"),
    ]
    assert _runs("国旗🇨🇳🇺🇸🇯") == [("🇨🇳", "flag"), ("🇺🇸", "flag")]


def test_numbers_other_scripts_and_controls():
    assert _runs("3.5%的ㄅㄆㄇ和世\x1b\x00界") == [("3.5%", "number"), ("ㄅㄆㄇ", "other"), ("\x1b\x00", "control")]


def test_a_million_character_run_is_one_run():
    """One pass: a 1,000,000-character line of any class comes back as its runs."""
    for unit, expected in [("é", 1), ("д", 1), ("0123456789abcdef", 125_000), ("a,", 500_000)]:
        text = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
        assert len(find_runs(text)[0]) == expected, unit


def test_e_mail_pattern_starts_only_where_its_characters_start():
    """What keeps the patterns linear on a long run without "@": the e-mail
    pattern is tried once per run of its characters, not once per position."""
    email = regex.compile(DEFAULT_PATTERNS[1])
    text = "x" * 50 + "@example.com"
    assert email.match(text, 0).group() == text
    assert all(email.match(text, start) is None for start in range(1, 50))


def test_default_patterns_find_what_the_earlier_ones_found():
    text = "联系a.b@foo.com或www.x.cn/a?b=1，http://t.co/x 售价1,000.5kg，增长3.5%，-12元"
    earlier = PatternSpans(EARLIER_DEFAULT_PATTERNS)(text).tolist()
    assert PatternSpans(DEFAULT_PATTERNS)(text).tolist() == earlier


def test_times_fractions_and_mentions_are_unbroken():
    text = "会议12:30开始，完成了3/4，@张三 你好"
    assert [text[s:e] for s, e in PatternSpans(DEFAULT_PATTERNS)(text).tolist()] == ["12:30", "3/4", "@张"]


def test_earlier_default_patterns_are_read_as_todays_with_a_warning(recwarn):
    """The shipped pipelines (0.4.1 to 0.6.1) carry the earlier defaults in
    their config: read as today's, and said so, not silently."""
    with pytest.warns(DeprecationWarning, match="unbroken_patterns hold patterns of spacy-cws 0.3"):
        assert SegmenterSettings(unbroken_patterns=EARLIER_DEFAULT_PATTERNS).unbroken_patterns == DEFAULT_PATTERNS
    mine = [r"[A-Z]{2}-[0-9]{4}", EARLIER_DEFAULT_PATTERNS[1]]
    assert upgraded_patterns(mine) == [mine[0], DEFAULT_PATTERNS[1]]
    recwarn.clear()
    SegmenterSettings(unbroken_patterns=DEFAULT_PATTERNS + mine[:1])
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_full_width_forms_are_found_as_their_ascii_forms():
    """Full-width e-mail addresses, URLs and numbers are spans as their ASCII
    forms are; the full-width comma and colon stay Chinese punctuation (CTB
    cuts the score "４：３" in three) but in a URL's "：／／"."""
    patterns = PatternSpans(DEFAULT_PATTERNS)
    for ascii_text in [
        "ABC123.45@example.com",
        "https://example.com/a",
        "www.example.com",
        "-1000.5kg",
        "3/4",
        "@张三",
    ]:
        full_width = ascii_text.translate({code: code + 0xFEE0 for code in range(0x21, 0x7F)})
        assert patterns(full_width).tolist() == patterns(ascii_text).tolist(), full_width
    text = "以４：３战胜，访问ｗｗｗ．ａ．ｃｎ，共１，２个"
    assert [text[s:e] for s, e in patterns(text).tolist()] == ["４", "３", "ｗｗｗ．ａ．ｃｎ", "１", "２"]
