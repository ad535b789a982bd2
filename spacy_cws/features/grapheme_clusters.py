"""Grapheme clusters (Unicode UAX #29, ``regex``'s ``\\X``): a letter with its
combining marks, a character with its variation selector, an emoji joined by
zero-width joiners, a flag. The model sees a cluster as one unit, and no word
boundary ever falls inside one."""
import numpy
import regex

_CLUSTER = regex.compile(r"\X")


# Between two of these characters there is always a cluster boundary (none is
# Extend, ZWJ, SpacingMark, Prepend, CR, a Hangul jamo or a regional indicator:
# Unicode UAX #29, rule GB999), so a text can be cut there.
_SAFE_CUT = regex.compile(r"(?<=[\x20-\x7e\u4e00-\u9fff])(?=[\x20-\x7e\u4e00-\u9fff])")
CLUSTER_BLOCK = 65536  # characters per findall call: its strings live only per block
# Texts of only these characters (line feeds, printable ASCII, CJK punctuation
# before the tone marks, CJK ideographs, full-width ASCII) have no cluster of
# more than one character (none is Extend, ZWJ, SpacingMark, Prepend, CR, a
# Hangul jamo or a regional indicator; a line feed is a cluster of its own but
# after CR), so most Chinese sentences, and batches of them joined by line
# feeds, skip \X.
_SINGLE_CLUSTERS = regex.compile(r"[\n\x20-\x7e\u3001-\u3029\u4e00-\u9fff\uff01-\uff5e]*+")


def grapheme_clusters(text: str) -> numpy.ndarray:
    """int64 (k, 2): the [start, end) offsets of the clusters of more than one
    character, leftmost first. The text is read in blocks of about
    CLUSTER_BLOCK characters cut at sure cluster boundaries, so memory does
    not grow with its length."""
    if _SINGLE_CLUSTERS.fullmatch(text):
        return numpy.zeros((0, 2), dtype=numpy.int64)
    found, start = [], 0
    while start < len(text):
        end = len(text)
        if start + CLUSTER_BLOCK < len(text):
            cut = _SAFE_CUT.search(text, start + CLUSTER_BLOCK)
            end = cut.start() if cut else len(text)
        clusters = _CLUSTER.findall(text, start, end)  # strings, not match objects: faster
        if len(clusters) < end - start:
            lengths = numpy.fromiter(map(len, clusters), dtype=numpy.int64, count=len(clusters))
            ends = start + numpy.cumsum(lengths)
            multi = lengths > 1
            found.append(numpy.stack([ends[multi] - lengths[multi], ends[multi]], axis=1))
        start = end
    return numpy.concatenate(found) if found else numpy.zeros((0, 2), dtype=numpy.int64)
