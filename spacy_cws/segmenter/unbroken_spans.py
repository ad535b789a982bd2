"""Pattern spans of a text that no word boundary may cut, whatever the model says.

URLs, e-mail addresses, "@" mentions, numbers with their separators and units,
times and fractions (users can add patterns in the component's config) are
never cut inside; where they join their neighbours is the model's choice (CTB
keeps "2009年" one word). Full-width forms are found as their ASCII forms are
(``PatternSpans``). Grapheme clusters and runs are never cut either: they are
units of the model's view (features/character_view.py).
"""
from typing import List, Sequence

import numpy
import regex

# Default patterns, tried in this order at each position (regex alternation).
# Each reads a text in linear time: every repeat is possessive (``++``), and
# the e-mail pattern starts only where a run of its characters starts, so a
# long run with no "@" (hex, base64, DNA) is read once, not once per position.
DEFAULT_PATTERNS = [
    # URLs with a scheme or starting with www., up to whitespace or CJK text/punctuation.
    r"(?:https?|ftp)://[^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]++|www\.[^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]++",
    # E-mail addresses.
    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]++@[A-Za-z0-9\-]++(?:\.[A-Za-z0-9\-]++)++",
    # A mention: "@" stays with the name after it ("@张三").
    r"@[^\s\p{P}\p{S}\p{C}]",
    # Numbers with thousands separators, decimals, times (12:30), fractions and
    # dates (3/4, 2009/10/01), signs, and ASCII units or a percent sign.
    r"[+\-]?[0-9]++(?:[,.:/][0-9]++)*+(?:%|[A-Za-z]{1,3}\b)?",
]
# The defaults of spacy-cws 0.3 and earlier, which pipelines up to 0.4.1 carry
# in their config. Their e-mail pattern takes quadratic time on a long run of
# its characters with no "@": such a configuration is read as today's
# defaults, and each of these patterns among other ones as its rewrite above.
EARLIER_DEFAULT_PATTERNS = [
    r"(?:https?|ftp)://[^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+|www\.[^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+",
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+",
    r"[+\-]?[0-9]+(?:[,.][0-9]+)*(?:%|[A-Za-z]{1,3}\b)?",
]
_REWRITES = dict(zip(EARLIER_DEFAULT_PATTERNS, [DEFAULT_PATTERNS[0], DEFAULT_PATTERNS[1], DEFAULT_PATTERNS[3]]))


def upgraded_patterns(patterns: Sequence[str]) -> List[str]:
    """``patterns`` with the earlier defaults replaced by today's (see above)."""
    if list(patterns) == EARLIER_DEFAULT_PATTERNS:
        return list(DEFAULT_PATTERNS)
    return [_REWRITES.get(pattern, pattern) for pattern in patterns]


# What the patterns read instead of full-width letters, digits and the signs of
# e-mail addresses and numbers: their ASCII forms, one character for one, so
# the offsets are the text's ("ａ＠ｂ．ｃｎ" is an e-mail address as "a@b.cn" is).
# The full-width comma, colon, question mark and tilde are Chinese punctuation
# and stay as they are (a URL stops at "，"; CTB cuts the score "４：３" in three),
# but for the colon of a URL's "：／／".
_FULL_WIDTH_SIGNS = "＠．＿％＋－／"
_PATTERN_FOLDING = {
    code: code - 0xFEE0
    for code in [*range(ord("０"), ord("９") + 1), *range(ord("Ａ"), ord("Ｚ") + 1), *range(ord("ａ"), ord("ｚ") + 1)]
    + [ord(sign) for sign in _FULL_WIDTH_SIGNS]
}


def pattern_text(text: str) -> str:
    """``text`` as the patterns read it (_PATTERN_FOLDING above); same length."""
    return text.translate(_PATTERN_FOLDING).replace("：//", "://")


class PatternSpans:
    """Finds the spans of a list of regular expressions (Python ``regex`` syntax)
    in a text read with full-width letters, digits and signs as ASCII
    (pattern_text), so an ASCII pattern finds their full-width forms too.

    RAISES ValueError: naming a pattern that does not compile.
    """

    def __init__(self, patterns: Sequence[str]):
        self.patterns = list(patterns)
        for pattern in self.patterns:
            try:
                regex.compile(pattern)
            except regex.error as err:
                raise ValueError(f"Unbroken-span pattern {pattern!r} does not compile: {err}") from err
        self._combined = regex.compile("|".join(f"(?:{p})" for p in self.patterns)) if self.patterns else None

    def __call__(self, text: str) -> numpy.ndarray:
        """int64 (k, 2): non-overlapping [start, end) matches in
        ``pattern_text(text)``, leftmost first."""
        if self._combined is None:
            return numpy.zeros((0, 2), dtype=numpy.int64)
        read = pattern_text(text)
        spans: List[tuple] = [(m.start(), m.end()) for m in self._combined.finditer(read) if m.end() > m.start()]
        return numpy.asarray(spans, dtype=numpy.int64).reshape(-1, 2)
