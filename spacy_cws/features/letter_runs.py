"""Runs that are never cut inside: numbers, and words of every alphabetic script.

A run is a maximal stretch of one kind, found by one linear scan (``regex``,
possessive quantifiers only, so no input backtracks):

- a number: digits with ``.``/``·`` fractions and an optional ``%``;
- a Latin word: Latin letters (ASCII, Latin-1 Supplement, Extended A/B,
  ligatures such as "ﬁ") with ``_`` and ``.``, as "U.S." and "file_name",
  and the language names "C#", "F#" (one ASCII letter) and "C++", "g++";
- a word of Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic, Devanagari,
  Thai, Hangul (syllables and jamo), Hiragana or Katakana (with the prolonged
  sound mark "ー"); letters of any other script except Han form runs of
  their own kind ("other"), so no script's word is cut inside either;
- a flag: a pair of regional indicators ("🇨🇳"), a word of its own;
- a run of control characters (C0/C1 other than whitespace).

Every letter takes its combining marks (``\\p{M}``: "e" + U+0301, Devanagari
and Thai vowel signs, variation selectors). Apostrophes, hyphens and the
format characters written inside words (soft hyphen, zero-width non-joiner
as in Persian "می\\u200cخواهم", zero-width joiner) join letters of one script
("can't", "state-of-the-art"); a middle dot joins Latin letters ("Jean·Paul").

Thai is written without spaces and needs a segmenter of its own: here a Thai
run is one unit, never split into words.

The model sees a run as one unit with one symbol per kind (``RUN_SYMBOLS``;
"other" runs, flags and control runs keep their first character). Runs of a
script other than Latin, flags and control runs are words of their own (``ALONE_KINDS``):
CTB writes "B超" and "卡拉OK" as one word, but no corpus joins Cyrillic or
Hangul to Han characters.
"""
import re
from typing import Dict, List, Tuple

import numpy
import regex

NUMBER_SYMBOL = "0"
LATIN_SYMBOL = "X"

# The scripts with a symbol of their own: (Unicode script, symbol the model sees).
_SCRIPTS: Dict[str, Tuple[str, str]] = {
    "latin": ("Latin", LATIN_SYMBOL),
    "greek": ("Greek", "α"),
    "cyrillic": ("Cyrillic", "а"),
    "armenian": ("Armenian", "ա"),
    "georgian": ("Georgian", "ა"),
    "hebrew": ("Hebrew", "א"),
    "arabic": ("Arabic", "ا"),
    "devanagari": ("Devanagari", "क"),
    "thai": ("Thai", "ก"),
    "hangul": ("Hangul", "가"),
    "hiragana": ("Hiragana", "あ"),
    "katakana": ("Katakana", "ア"),
}
# Apostrophes, hyphen-minus, hyphen, and the format characters written inside
# words: soft hyphen, zero-width non-joiner (Persian "می\u200cخواهم"), zero-width joiner.
_JOINERS = "'\u2019\\-\u2010\u00ad\u200c\u200d"
_CONTROLS = "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f"  # C0/C1 controls that str.isspace() rejects
# Names of programming languages: "C#", "F#" (one ASCII letter) and "C++",
# "Notepad++" (a Latin word), not followed by more of their characters.
_LANGUAGE_SHARP = r"[A-Za-z]#(?![A-Za-z0-9_#])"
_PLUS_PLUS = r"\+\+(?![A-Za-z_+#])"
_REGIONAL_INDICATOR = "[\U0001F1E6-\U0001F1FF]"  # two make a flag


def _letters(script: str) -> str:
    """The letters of one script: ``[^\\P{S}\\P{L}]`` is "in S and a letter"."""
    return rf"[^\P{{{script}}}\P{{L}}]"


def _word(character: str, letter: str, following: str, joiners: str) -> str:
    """One run of ``character``s, each with its ``following`` marks; a joiner
    only between a run character and a ``letter``."""
    more = rf"(?:{character}{following}*+)"
    return rf"{more}++(?:[{joiners}](?={letter}){more}++)*+"


def _pattern() -> str:
    marks = r"\p{M}"
    kana_marks = r"[\p{M}\u30fc\uff70]"  # the prolonged sound mark, full and half width
    groups = [r"(?P<number>[0-9]++(?:[.·][0-9]++)*+%?)"]
    for kind, (script, _) in _SCRIPTS.items():
        letter = _letters(script)
        if kind == "latin":
            word = _word(rf"(?:{letter}|[_.])", letter, marks, _JOINERS + "·")
            word = rf"{_LANGUAGE_SHARP}|{word}(?:{_PLUS_PLUS})?+"
        else:
            word = _word(letter, letter, kana_marks if kind in ("hiragana", "katakana") else marks, _JOINERS)
        groups.append(rf"(?P<{kind}>{word})")
    listed = "".join(rf"\p{{{script}}}" for script, _ in _SCRIPTS.values())
    other = rf"[^\P{{L}}\p{{Han}}\p{{Common}}\p{{Inherited}}{listed}]"
    groups.append(rf"(?P<other>{_word(other, other, marks, _JOINERS)})")
    groups.append(rf"(?P<flag>{_REGIONAL_INDICATOR}{{2}})")
    groups.append(rf"(?P<control>[{_CONTROLS}]++)")
    return "|".join(groups)


_RUN = regex.compile(_pattern())
RUN_KINDS: List[str] = ["number", *_SCRIPTS, "other", "flag", "control"]
# Symbol code point per kind; 0 keeps the run's first character.
RUN_SYMBOLS = numpy.array(
    [ord(NUMBER_SYMBOL), *(ord(symbol) for _, symbol in _SCRIPTS.values()), 0, 0, 0], dtype=numpy.uint32
)
# Kinds whose runs are words of their own (no neighbour joins them).
ALONE_KINDS = numpy.array([kind not in ("number", "latin") for kind in RUN_KINDS])
_KIND_INDEX = {kind: index for index, kind in enumerate(RUN_KINDS)}


# Stretches that can hold a run: everything but whitespace, Han characters, CJK
# and full-width punctuation, and ASCII punctuation that is never part of a
# run. Scanning these with stdlib ``re`` first and the run pattern only inside
# them makes Han text cost almost nothing.
_CANDIDATES = re.compile(r"[^\s\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20,;:!?()\"\[\]{}<>/]+")


def find_runs(text: str) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The runs of ``text`` (see the module docstring), leftmost first.

    RETURNS: (starts, ends, kinds): int64 (k,) [start, end) character offsets
        and int64 (k,) indices into ``RUN_KINDS``. Linear in ``len(text)``.
    """
    found = [
        (m.start(), m.end(), _KIND_INDEX[m.lastgroup])
        for candidate in _CANDIDATES.finditer(text)
        for m in _RUN.finditer(text, candidate.start(), candidate.end())
    ]
    if not found:
        empty = numpy.zeros(0, dtype=numpy.int64)
        return empty, empty.copy(), empty.copy()
    starts, ends, kinds = (numpy.asarray(column, dtype=numpy.int64) for column in zip(*found))
    return starts, ends, kinds
