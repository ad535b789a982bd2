"""An exact Python port of the SIGHAN Bakeoff (icwb2) Perl scorer ``score``.

The official script (``perl score training_words gold system``) works on raw
bytes, writes the words of each gold/system line pair one per line to two
temporary files, runs ``/usr/bin/diff -y`` on them and counts the side-by-side
output with regular expressions. This module reproduces that pipeline without
spawning processes: a port of GNU diffutils 3.8's line matching (identical
prefix/suffix trimming, ``discard_confusing_lines``, Myers' O(ND) ``diag`` /
``compareseq`` bisection and ``shift_boundaries``; gnu_diff.py) decides which
words are "common", and the Perl regexes are evaluated on a model of the lines
that ``diff -y`` (default width 130, UTF-8 locale) would print (gnu_diff.py).

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
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

from .gnu_diff import HALF_WIDTH, printed, segments, side_by_side
from .line_alignment import check_line_alignment, check_word_list

PathLike = Union[str, Path]

_PERL_SPACE = re.compile(rb"[ \t\n\r\f\v]+")
_WIDE_SPACES = re.compile(rb"\xe3\x80\x80|\xa1\x40")
_MARKS = (b"|", b">", b"<")  # diff -y gutter marks, in the order Perl tests them


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
        for left, mark, right in side_by_side(gold, test):
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
                word, column = printed(left)
                known = word in self.dictionary
                self.iv += known
                self.oov += not known
                # /^[^\s]+\s.*\s[\|\>\<]\s/ needs two whitespace characters
                # before the gutter mark; at column 61 diff puts just one space.
                if (mark != b" " and column != HALF_WIDTH) or right in _MARKS:
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


def align_words(gold_line: bytes, system_line: bytes) -> list[tuple[list[bytes], list[bytes], bool]]:
    """The words of a gold/system line pair as the scorer matches them.

    RETURNS (gold words, system words, matched) segments in line order. A
    matched segment is one gold word on a common line of diff's alignment with
    the equal system word (the scorer counts it correct); the others are the
    runs of unmatched words between two matches (one side may be empty).
    Words are split as the scorer splits lines (bytes, see the module doc).
    """
    gold, system = _split(gold_line), _split(system_line)
    return [(gold[i:i_end], system[j:j_end], common) for i, i_end, j, j_end, common in segments(gold, system)]
