"""Spans of a text that no word boundary may cut, whatever the model says.

- Grapheme clusters (``regex``'s ``\\X``: a letter with its combining marks,
  an emoji joined by zero-width joiners, a flag): never cut inside.
- Pattern spans (URLs, e-mail addresses, "@" mentions, numbers with their
  separators and units, times and fractions; users can add patterns in the
  component's config): never cut
  inside; where they join their neighbours is the model's choice (CTB keeps
  "2009年" one word).
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


_CLUSTER = regex.compile(r"\X")


# Between two of these characters there is always a cluster boundary (none is
# Extend, ZWJ, SpacingMark, Prepend, CR, a Hangul jamo or a regional indicator:
# Unicode UAX #29, rule GB999), so a text can be cut there.
_SAFE_CUT = regex.compile(r"(?<=[\x20-\x7e\u4e00-\u9fff])(?=[\x20-\x7e\u4e00-\u9fff])")
CLUSTER_BLOCK = 65536  # characters per findall call: its strings live only per block
# Texts of only these characters (printable ASCII, CJK punctuation before the
# tone marks, CJK ideographs, full-width ASCII) have no cluster of more than
# one character (none is Extend, ZWJ, SpacingMark, Prepend, a control, a
# Hangul jamo or a regional indicator), so most Chinese sentences skip \X.
_SINGLE_CLUSTERS = regex.compile(r"[\x20-\x7e\u3001-\u3029\u4e00-\u9fff\uff01-\uff5e]*+")


def grapheme_clusters(text: str) -> numpy.ndarray:
    """int64 (k, 2): the [start, end) offsets of the clusters of more than one
    character. The text is read in blocks of about CLUSTER_BLOCK characters cut
    at sure cluster boundaries, so memory does not grow with its length."""
    if _SINGLE_CLUSTERS.fullmatch(text):
        return numpy.zeros((0, 2), dtype=numpy.int64)
    found, start = [], 0
    while start < len(text):
        end = len(text)
        if start + CLUSTER_BLOCK < len(text):
            cut = _SAFE_CUT.search(text, start + CLUSTER_BLOCK)
            end = cut.start() if cut else len(text)
        clusters = _CLUSTER.findall(text, start, end)  # strings, not match objects: 3x faster on CTB6
        if len(clusters) < end - start:
            lengths = numpy.fromiter(map(len, clusters), dtype=numpy.int64, count=len(clusters))
            ends = start + numpy.cumsum(lengths)
            multi = lengths > 1
            found.append(numpy.stack([ends[multi] - lengths[multi], ends[multi]], axis=1))
        start = end
    return numpy.concatenate(found) if found else numpy.zeros((0, 2), dtype=numpy.int64)


class PatternSpans:
    """Finds the spans of a list of regular expressions (Python ``regex`` syntax).

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
        """int64 (k, 2): non-overlapping [start, end) matches, leftmost first."""
        if self._combined is None:
            return numpy.zeros((0, 2), dtype=numpy.int64)
        spans: List[tuple] = [(m.start(), m.end()) for m in self._combined.finditer(text) if m.end() > m.start()]
        return numpy.asarray(spans, dtype=numpy.int64).reshape(-1, 2)
