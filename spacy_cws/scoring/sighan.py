"""An exact Python port of the SIGHAN Bakeoff (icwb2) Perl scorer ``score``.

The official script (``perl score training_words gold system``) works on raw
bytes, writes the words of each gold/system line pair one per line to two
temporary files, runs ``/usr/bin/diff -y`` on them and counts the side-by-side
output with regular expressions. This module reproduces that pipeline without
spawning processes: a port of GNU diffutils 3.8's line matching (identical
prefix/suffix trimming, ``discard_confusing_lines``, Myers' O(ND) ``diag`` /
``compareseq`` bisection and ``shift_boundaries``) decides which words are
"common", and the Perl regexes are evaluated on a model of the lines that
``diff -y`` (default width 130, UTF-8 locale) would print.

Quirks of the Perl script that are replicated, on purpose:

* Bytes, not characters. "Whitespace" is ASCII whitespace (Perl's ``\\s`` on
  byte strings). A UTF-8 BOM is not stripped: on ``cityu/test_gold.utf8`` the
  first gold word carries it, so it matches only a system word carrying it too,
  and it is looked up in the dictionary with the BOM (so it is OOV unless the
  word list has the same BOM-prefixed line).
* Gold and system lines are stripped, then U+3000 (``\\xe3\\x80\\x80``) and
  Big5 ``\\xa1\\x40`` become spaces, then ``\\r`` is deleted, then the line is
  split on whitespace runs. Perl's ``split`` keeps a leading empty field, so a
  line starting with U+3000 gets an empty first "word"; it counts in the word
  totals but, printing as nothing in ``diff -y``, is never counted as wrong.
* Line pairs are read until *either* file ends; later lines are ignored.
  Pairs whose gold line has no words are skipped (their system words are not
  counted). A line pair is scored whatever its characters. This blind pairing
  is kept only with ``perl_compat=True`` (the CLI's ``--perl-compat``); by
  default the files must be UTF-8 and line-aligned (see line_alignment).
* Dictionary lines lose their last byte (``chop``: the newline, or the last
  byte of a final line without one), then surrounding whitespace.
* Correctness is string matching: a gold word is correct when it sits on a
  common line of GNU diff's alignment of the two word lists. That is usually a
  longest common subsequence, but not always: ``discard_confusing_lines``
  drops words with many matches inside runs of unmatched words (on jieba's
  output this costs 4 correct words on PKU and 2 on CityU). Which gold words
  are matched also decides OOV/IV recall, so diff is ported rather than any
  LCS.
* The OOV/IV lookup uses the gold word as ``diff -y`` prints it, truncated to
  61 display columns; a gold word whose printed form ends exactly at column 61
  is followed by a single space before the gutter mark, which the Perl
  "missed word" regex cannot match, so such a word is never counted as missed.
  Words that long (61+ bytes) do not occur in the SIGHAN 2005 gold files.
* A word that is exactly ``|``, ``<`` or ``>`` on the system side looks like a
  gutter mark to the regexes: on a common line it makes the gold word count as
  missed for recall (but not for precision).

Units: every rate is a fraction in [0, 1] (the Perl script prints them with
three decimals); counts are numbers of words. Deviations, where Perl dies
dividing by zero: no gold or no system words at all raise ``ValueError``;
P = R = 0 gives F = 0; a system line left empty where the gold line has words
is scored (all its gold words missed), while Perl aborts on its per-line
precision. diff's ``TOO_EXPENSIVE`` cut-off (edit cost >= 4096 within one
line) and backspace handling in ``diff -y`` columns are not modelled.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator, Optional, Sequence, Union

from .line_alignment import check_line_alignment, check_word_list

PathLike = Union[str, Path]

_PERL_SPACE = re.compile(rb"[ \t\n\r\f\v]+")
_WIDE_SPACES = re.compile(rb"\xe3\x80\x80|\xa1\x40")
_MARKS = (b"|", b">", b"<")  # diff -y gutter marks, in the order Perl tests them
# diff -y with the default width 130 and tab size 8: a half line holds 61
# columns, the gutter mark sits at column 62 and the right column starts at 64.
_HALF_WIDTH = 61


@dataclass(frozen=True)
class SighanScore:
    """Totals of the SIGHAN scorer. Rates are fractions in [0, 1], unrounded.

    ``precision``/``recall`` are Perl's TEST WORDS PRECISION / TRUE WORDS
    RECALL, ``f1`` its F MEASURE, ``oov_rate`` = OOV gold words / ``true_words``,
    ``oov_recall``/``iv_recall`` are None where Perl prints "--" (no OOV/IV gold
    word). ``true_words``/``test_words`` are the TOTAL TRUE/TEST WORD COUNTs and
    ``insertions``/``deletions``/``substitutions`` diff's per-line edit counts.
    """

    precision: float
    recall: float
    f1: float
    oov_rate: float
    oov_recall: Optional[float]
    iv_recall: Optional[float]
    true_words: int
    test_words: int
    insertions: int
    deletions: int
    substitutions: int

    def to_dict(self) -> dict:
        return asdict(self)


def read_dictionary(path: PathLike) -> set[bytes]:
    """Read a training word list the way the Perl script does (see module doc)."""
    return dictionary_of(read_byte_lines(path))


def dictionary_of(lines: Sequence[bytes]) -> set[bytes]:
    """The words of a training word list's lines (bytes, each with its line end), as Perl reads them."""
    return {line[:-1].strip() for line in lines}


def score_files(
    gold_path: PathLike, system_path: PathLike, train_words_path: PathLike, perl_compat: bool = False
) -> SighanScore:
    """Score a system segmentation file against a gold file (both one sentence
    a line, words separated by whitespace), with the training word list
    deciding which gold words are out of vocabulary.

    perl_compat: pair the lines as the Perl script does (see score_lines)
        and read the word list whatever it holds.
    RAISES FileNotFoundError naming a missing file; CorpusFormatError and
        LineMismatchError as score_lines does, naming the file; unless
        perl_compat, CorpusFormatError and ValueError for a word list that is
        not UTF-8 or holds no word (check_word_list); ValueError when there
        is nothing to score.
    """
    gold, system = read_byte_lines(gold_path), read_byte_lines(system_path)
    if not perl_compat:
        check_line_alignment(gold, system, gold_path, system_path)
    words = read_byte_lines(train_words_path)
    if not perl_compat:
        check_word_list(words, train_words_path)
    return score_lines(gold, system, dictionary_of(words), perl_compat=True)


def score_lines(
    gold_lines: Sequence[bytes],
    system_lines: Sequence[bytes],
    dictionary: set[bytes],
    perl_compat: bool = False,
) -> SighanScore:
    """Score aligned gold and system lines (bytes, newline optional).

    By default the lines must be UTF-8 and aligned: as many lines (blank
    lines at the end aside), each system line the gold line's characters.
    perl_compat: skip that check and pair lines as the Perl script does:
        until either side ends, whatever their characters or bytes.
    RAISES CorpusFormatError for a line that is not UTF-8; LineMismatchError
        naming the first missing, extra or different line; ValueError when
        there is nothing to score (no gold or no system words).
    """
    if not perl_compat:
        check_line_alignment(gold_lines, system_lines)
    totals = _Totals(dictionary)
    # Perl: while (defined($truth = <TRUTH>) && defined($test = <TEST>))
    for gold, system in zip(gold_lines, system_lines):
        totals.pairs += 1
        gold_words, system_words = _split(gold), _split(system)
        if gold_words:
            totals.add(gold_words, system_words)
    return totals.result()


def read_byte_lines(path: PathLike) -> list[bytes]:
    """The file's lines as raw bytes, each with its newline (like Perl's <FH>): what the
    official scorer compares, undecoded.

    path: a file, or anything that opens as one (a pipe such as /dev/fd/63, /dev/stdin).
    RAISES FileNotFoundError when ``path`` is missing or a folder.
    """
    path = Path(path)
    if path.is_dir():
        raise FileNotFoundError(f"SIGHAN scorer: {path} is a folder, not a file")
    try:
        with path.open("rb") as f:
            return f.readlines()
    except FileNotFoundError:
        raise FileNotFoundError(f"SIGHAN scorer: {path} not found") from None


def _split(line: bytes) -> list[bytes]:
    line = _WIDE_SPACES.sub(b" ", line.strip()).replace(b"\r", b"")
    words = _PERL_SPACE.split(line)
    while words and not words[-1]:  # Perl's split drops trailing empty fields only
        words.pop()
    return words


class _Totals:
    """Running counts, mirroring the Perl script's variables."""

    def __init__(self, dictionary: set[bytes]) -> None:
        self.dictionary = dictionary
        self.ins = self.dels = self.subst = 0
        self.true_words = self.test_words = 0
        self.raw_recall = self.raw_precision = 0
        self.oov = self.iv = self.oov_missed = self.iv_missed = 0
        self.pairs = 0  # gold/system line pairs read

    def add(self, gold: list[bytes], test: list[bytes]) -> None:
        missed = wrong = 0
        for left, mark, right in _side_by_side(gold, test):
            marks = {mark} if mark != b" " else set()
            # A lone "|", "<" or ">" system word is preceded by whitespace and
            # followed by the newline, so Perl's /\s\|\s/ etc. see it as a mark.
            if right in _MARKS:
                marks.add(right)
            if b"|" in marks:
                self.subst += 1
            elif b">" in marks:
                self.ins += 1
            elif b"<" in marks:
                self.dels += 1
            if left:  # /^([^\s]+)\s/: an empty gold word prints as nothing
                word, column = _printed(left)
                known = word in self.dictionary
                self.iv += known
                self.oov += not known
                # /^[^\s]+\s.*\s[\|\>\<]\s/ needs two whitespace characters
                # before the gutter mark; at column 61 diff puts just one space.
                if (mark != b" " and column != _HALF_WIDTH) or right in _MARKS:
                    missed += 1
                    self.iv_missed += known
                    self.oov_missed += not known
            # /\s[\|\>\<]\s.*[^\s]$/: a gutter mark followed by a system word.
            if mark in (b"|", b">") and right:
                wrong += 1
        self.true_words += len(gold)
        self.test_words += len(test)
        self.raw_recall += len(gold) - missed
        self.raw_precision += len(test) - wrong

    def result(self) -> SighanScore:
        if not self.true_words or not self.test_words:
            raise ValueError(
                f"SIGHAN scorer: nothing to score: {self.true_words} gold words and "
                f"{self.test_words} system words in the {self.pairs} line pairs read "
                "(pairs end with the shorter file)"
            )
        recall = self.raw_recall / self.true_words
        precision = self.raw_precision / self.test_words
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return SighanScore(
            precision=precision,
            recall=recall,
            f1=f1,
            oov_rate=self.oov / self.true_words,
            oov_recall=1 - self.oov_missed / self.oov if self.oov else None,
            iv_recall=1 - self.iv_missed / self.iv if self.iv else None,
            true_words=self.true_words,
            test_words=self.test_words,
            insertions=self.ins,
            deletions=self.dels,
            substitutions=self.subst,
        )


# --- diff -y output model -------------------------------------------------


_SideBySideLine = tuple[Optional[bytes], bytes, Optional[bytes]]


def align_words(gold_line: bytes, system_line: bytes) -> list[tuple[list[bytes], list[bytes], bool]]:
    """The words of a gold/system line pair as the scorer matches them.

    RETURNS (gold words, system words, matched) segments in line order. A
    matched segment is one gold word on a common line of diff's alignment with
    the equal system word (the scorer counts it correct); the others are the
    runs of unmatched words between two matches (one side may be empty).
    Words are split as the scorer splits lines (bytes, see the module doc).
    """
    gold, system = _split(gold_line), _split(system_line)
    return [(gold[i:i_end], system[j:j_end], common) for i, i_end, j, j_end, common in _segments(gold, system)]


def _segments(a: list[bytes], b: list[bytes]) -> Iterator[tuple[int, int, int, int, bool]]:
    """Yield (i, i_end, j, j_end, common) spans of ``a`` and ``b`` in order:
    one common line of ``diff a b`` (common=True), or one hunk of changed lines."""
    changed0, changed1 = _diff_changed(a, b)
    i = j = 0
    n0, n1 = len(a), len(b)
    while i < n0 or j < n1:
        if not (changed0[i] or changed1[j]):
            yield i, i + 1, j, j + 1, True
            i += 1
            j += 1
            continue
        i_end, j_end = i, j
        while i_end < n0 and changed0[i_end]:
            i_end += 1
        while j_end < n1 and changed1[j_end]:
            j_end += 1
        yield i, i_end, j, j_end, False
        i, j = i_end, j_end


def _side_by_side(a: list[bytes], b: list[bytes]) -> Iterator[_SideBySideLine]:
    """Yield (left, mark, right) for each line ``diff -y`` prints; mark is
    b" " for a common line, else b"|", b">" or b"<" (hunk order as in
    GNU diff's print_sdiff_hunk); left/right are None where a side is blank."""
    for i, i_end, j, j_end, common in _segments(a, b):
        if common:
            yield a[i], b" ", b[j]
            continue
        paired = min(i_end - i, j_end - j)
        for k in range(paired):
            yield a[i + k], b"|", b[j + k]
        for k in range(j + paired, j_end):
            yield None, b">", b[k]
        for k in range(i + paired, i_end):
            yield a[k], b"<", None


def _printed(word: bytes) -> tuple[bytes, int]:
    """The part of ``word`` that ``diff -y`` prints in a 61-column half line,
    and the column where it ends (GNU diff 3.8 print_half_line in a UTF-8
    locale: invalid bytes and control characters take no column)."""
    if len(word) < _HALF_WIDTH:  # every display column takes at least one byte
        return word, 0
    out, position, column, i = bytearray(), 0, 0, 0
    while i < len(word):
        size = _utf8_size(word, i)
        if size:
            width = _wcwidth(word[i : i + size].decode("utf-8"))
            position += max(width, 0)
            if position <= _HALF_WIDTH:
                out += word[i : i + size]
                column = position
        else:  # diff's fallback for bytes mbrtowc rejects tests "<", not "<="
            size = 1
            if position < _HALF_WIDTH:
                out += word[i : i + 1]
        i += size
    return bytes(out), column


def _utf8_size(data: bytes, i: int) -> int:
    """Length of the valid UTF-8 character at ``data[i]``, 0 if invalid."""
    lead = data[i]
    if lead < 0x80:
        return 1
    if not 0xC2 <= lead < 0xF5:
        return 0
    size = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    try:
        data[i : i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return size


def _wcwidth(char: str) -> int:
    """glibc's wcwidth for one character, approximated from Unicode data."""
    code = ord(char)
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Cn"):
        return -1
    if code == 0xAD:
        return 1
    if category in ("Mn", "Me", "Cf") or 0x1160 <= code < 0x1200:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


# --- GNU diffutils 3.8 line matching (src/analyze.c, io.c, gnulib diffseq.h) ---


def _diff_changed(a: list[bytes], b: list[bytes]) -> tuple[bytearray, bytearray]:
    """Per-line "changed" flags of ``diff a b``; each has a trailing 0 sentinel."""
    n0, n1 = len(a), len(b)
    # io.c find_identical_ends: the identical prefix and suffix lines are
    # matched up front and never take part in the comparison below.
    prefix = 0
    while prefix < n0 and prefix < n1 and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(n0, n1) - prefix and a[n0 - 1 - suffix] == b[n1 - 1 - suffix]:
        suffix += 1
    classes: dict[bytes, int] = {}
    x = [classes.setdefault(w, len(classes) + 1) for w in a[prefix : n0 - suffix]]
    y = [classes.setdefault(w, len(classes) + 1) for w in b[prefix : n1 - suffix]]
    middle0, middle1 = _analyze(x, y)
    changed0 = bytearray(prefix) + middle0[1:-1] + bytearray(suffix + 1)
    changed1 = bytearray(prefix) + middle1[1:-1] + bytearray(suffix + 1)
    return changed0, changed1


def _analyze(x: list[int], y: list[int]) -> tuple[bytearray, bytearray]:
    """analyze.c diff_2_files on equivalence-class vectors. Returns changed
    flags with a 0 sentinel at both ends (index 1 is line 0), as in C."""
    equivs = (x, y)
    changed = (bytearray(len(x) + 2), bytearray(len(y) + 2))
    kept = [_discard_confusing_lines(equivs[f], equivs[1 - f], changed[f]) for f in (0, 1)]
    xv = [x[i] for i in kept[0]]
    yv = [y[i] for i in kept[1]]
    for xi, yi in _compareseq(xv, yv):
        if xi is not None:
            changed[0][kept[0][xi] + 1] = 1
        else:
            changed[1][kept[1][yi] + 1] = 1
    _shift_boundaries(x, changed[0], changed[1])
    _shift_boundaries(y, changed[1], changed[0])
    return changed


def _discard_confusing_lines(
    equivs: list[int], other: list[int], changed: bytearray
) -> list[int]:
    """analyze.c discard_confusing_lines for one file: mark lines with no match
    in the other file (and some with very many) as changed up front; return
    the indices of the lines kept for the comparison."""
    counts: dict[int, int] = {}
    for e in other:
        counts[e] = counts.get(e, 0) + 1
    end = len(equivs)
    # diffutils 3.8's threshold (5 below 256 lines), checked against /usr/bin/diff.
    many = 5
    tem = end >> 6
    while (tem := tem >> 2) > 0:
        many *= 2
    discards = bytearray(end)
    for i, e in enumerate(equivs):
        nmatch = counts.get(e, 0)
        if nmatch == 0:
            discards[i] = 1
        elif nmatch > many:
            discards[i] = 2

    # Keep provisional discards (2) only inside runs of discardable lines
    # that start and end with definite ones (1). Verbatim port of the C loop.
    i = 0
    while i < end:
        if discards[i] == 2:
            discards[i] = 0
        elif discards[i]:
            provisional = 0
            j = i
            while j < end and discards[j]:
                provisional += discards[j] == 2
                j += 1
            while j > i and discards[j - 1] == 2:
                j -= 1
                discards[j] = 0
                provisional -= 1
            length = j - i
            if provisional * 4 > length:
                for k in range(i, j):
                    if discards[k] == 2:
                        discards[k] = 0
            else:
                minimum = 1
                tem = length >> 2
                while (tem := tem >> 2) > 0:
                    minimum <<= 1
                minimum += 1
                consec = 0
                j = 0
                while j < length:
                    if discards[i + j] != 2:
                        consec = 0
                    else:
                        consec += 1
                        if minimum == consec:
                            j -= consec  # back up to cancel the whole subrun
                        elif minimum < consec:
                            discards[i + j] = 0
                    j += 1
                for step in (1, -1):
                    if step == -1:
                        i += length - 1
                    consec = 0
                    for j in range(length):
                        k = i + step * j
                        if j >= 8 and discards[k] == 1:
                            break
                        if discards[k] == 2:
                            consec = 0
                            discards[k] = 0
                        elif discards[k] == 0:
                            consec = 0
                        else:
                            consec += 1
                        if consec == 3:
                            break
        i += 1

    kept = []
    for i in range(end):
        if discards[i]:
            changed[i + 1] = 1
        else:
            kept.append(i)
    return kept


def _compareseq(xv: list[int], yv: list[int]) -> Iterator[tuple[Optional[int], Optional[int]]]:
    """diffseq.h compareseq without heuristics: yield (x, None) for deleted and
    (None, y) for inserted elements of a shortest edit script, split at the
    midpoints Myers' bidirectional search finds, as GNU diff does."""
    n0, n1 = len(xv), len(yv)
    size = n0 + n1 + 3
    fd, bd = [0] * size, [0] * size
    off = n1 + 1  # fd[d + off] holds diagonal d, d in [-n1 - 1, n0 + 1]
    stack = [(0, n0, 0, n1)]
    while stack:
        xoff, xlim, yoff, ylim = stack.pop()
        while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
            xoff += 1
            yoff += 1
        while xoff < xlim and yoff < ylim and xv[xlim - 1] == yv[ylim - 1]:
            xlim -= 1
            ylim -= 1
        if xoff == xlim:
            for k in range(yoff, ylim):
                yield None, k
        elif yoff == ylim:
            for k in range(xoff, xlim):
                yield k, None
        else:
            xmid, ymid = _diag(xv, yv, xoff, xlim, yoff, ylim, fd, bd, off)
            stack.append((xmid, xlim, ymid, ylim))
            stack.append((xoff, xmid, yoff, ymid))


def _diag(xv, yv, xoff, xlim, yoff, ylim, fd, bd, off) -> tuple[int, int]:
    """diffseq.h diag: the midpoint of a shortest edit script of the slices."""
    dmin, dmax = xoff - ylim, xlim - yoff
    fmid, bmid = xoff - yoff, xlim - ylim
    fmin = fmax = fmid
    bmin = bmax = bmid
    odd = (fmid - bmid) & 1
    fd[fmid + off] = xoff
    bd[bmid + off] = xlim
    big = xlim + ylim + 1  # stands in for OFFSET_MAX
    while True:
        if fmin > dmin:
            fmin -= 1
            fd[fmin - 1 + off] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            fd[fmax + 1 + off] = -1
        else:
            fmax -= 1
        for d in range(fmax, fmin - 1, -2):
            tlo, thi = fd[d - 1 + off], fd[d + 1 + off]
            x = thi if tlo < thi else tlo + 1
            y = x - d
            while x < xlim and y < ylim and xv[x] == yv[y]:
                x += 1
                y += 1
            fd[d + off] = x
            if odd and bmin <= d <= bmax and bd[d + off] <= x:
                return x, y
        if bmin > dmin:
            bmin -= 1
            bd[bmin - 1 + off] = big
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            bd[bmax + 1 + off] = big
        else:
            bmax -= 1
        for d in range(bmax, bmin - 1, -2):
            tlo, thi = bd[d - 1 + off], bd[d + 1 + off]
            x = tlo if tlo < thi else thi - 1
            y = x - d
            while xoff < x and yoff < y and xv[x - 1] == yv[y - 1]:
                x -= 1
                y -= 1
            bd[d + off] = x
            if not odd and fmin <= d <= fmax and x <= fd[d + off]:
                return x, y


def _shift_boundaries(equivs: list[int], changed: bytearray, other_changed: bytearray) -> None:
    """analyze.c shift_boundaries for one file: slide runs of changes over
    equal neighbours to merge them, then (if possible) to line up with a run
    of changes in the other file. ``changed`` arrays carry sentinels at both
    ends (index k + 1 is line k); the C index arithmetic is kept as is."""
    i = j = 0
    i_end = len(equivs)
    c = changed  # c[k + 1] is C's changed[k]
    o = other_changed
    while True:
        while i < i_end and not c[i + 1]:
            while o[j + 1]:
                j += 1
            j += 1
            i += 1
        if i == i_end:
            break
        start = i
        i += 1
        while c[i + 1]:
            i += 1
        while o[j + 1]:
            j += 1
        while True:
            runlength = i - start
            while start and equivs[start - 1] == equivs[i - 1]:
                start -= 1
                c[start + 1] = 1
                i -= 1
                c[i + 1] = 0
                while c[start]:
                    start -= 1
                j -= 1
                while o[j + 1]:
                    j -= 1
            corresponding = i if o[j] else i_end
            while i != i_end and equivs[start] == equivs[i]:
                c[start + 1] = 0
                start += 1
                c[i + 1] = 1
                i += 1
                while c[i + 1]:
                    i += 1
                j += 1
                while o[j + 1]:
                    corresponding = i
                    j += 1
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            c[start + 1] = 1
            i -= 1
            c[i + 1] = 0
            j -= 1
            while o[j + 1]:
                j -= 1
