"""Where a segmentation goes wrong: scores by sentence length and word length,
split and merge errors, and the most frequent error patterns with examples.

Words are matched by the official SIGHAN scorer's alignment
(``sighan.align_words``, GNU diff's matching), not re-implemented: a gold
word is correct where the scorer counts it correct. The overall and per-bucket
measures are ``sighan.score_lines`` itself. (Recall by word length counts the
matched gold words, which differs from the scorer's recall only in its
printing quirks: a system word that is exactly ``|``, ``<`` or ``>``, and gold
words of 61+ bytes; see sighan's module doc.)

An unmatched segment (the words between two matches) is a *merge* when one
system word covers several gold words, a *split* when one gold word became
several system words, and *other* when boundaries cross (or, rarely, when
diff matched words at different positions and the two sides hold different
characters).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .line_alignment import check_line_alignment, check_word_list
from .sighan import SighanScore, align_words, dictionary_of, read_byte_lines, score_lines

PathLike = Union[str, Path]

# Sentence-length buckets in characters (gold line without whitespace): (label, first, last).
LENGTH_BUCKETS: Tuple[Tuple[str, int, Optional[int]], ...] = (
    ("1-10", 1, 10),
    ("11-20", 11, 20),
    ("21-40", 21, 40),
    ("41-80", 41, 80),
    ("81+", 81, None),
)
# Word lengths in characters; the last one stands for "this long or longer".
WORD_LENGTHS = (1, 2, 3, 4, 5)
ERROR_KINDS = ("split", "merge", "other")
TOP_PATTERNS = 50
EXAMPLES_PER_PATTERN = 3
CONTEXT_WORDS = 4  # gold words shown on each side of an error


@dataclass(frozen=True)
class ErrorExample:
    """One occurrence of an error in its sentence: gold words before and after it."""

    line_no: int  # 1-based line of the gold file
    left: str
    right: str


@dataclass
class ErrorPattern:
    """An error: the gold words and what the system made of them (space-separated)."""

    kind: str
    gold: str
    system: str
    count: int = 0
    examples: List[ErrorExample] = field(default_factory=list)


@dataclass
class SystemAnalysis:
    """Everything the report shows about one system against the gold file.

    score: the official measures over the whole file.
    buckets: label -> (number of lines, the official measures on those lines,
        None where the bucket has no line).
    word_length_recall: word length in characters (the last: or longer) ->
        (matched gold words, gold words).
    error_counts: kind ("split", "merge", "other") -> number of errors.
    patterns: the TOP_PATTERNS most frequent errors, most frequent first.
    """

    name: str
    score: SighanScore
    buckets: Dict[str, Tuple[int, Optional[SighanScore]]]
    word_length_recall: Dict[int, Tuple[int, int]]
    error_counts: Dict[str, int]
    patterns: List[ErrorPattern]


def analyse_files(
    gold_path: PathLike, system_paths: Dict[str, PathLike], train_words_path: PathLike
) -> List[SystemAnalysis]:
    """Analyse each system file (name -> path) against one gold file.

    RAISES FileNotFoundError naming a missing file; CorpusFormatError and
        LineMismatchError (ValueErrors) naming the file and line when a system
        file is not UTF-8 or not line-aligned with the gold file, or the word
        list is not UTF-8 or empty (check_word_list); ValueError when there is
        nothing to score.
    """
    gold, words = read_byte_lines(gold_path), read_byte_lines(train_words_path)
    check_word_list(words, train_words_path)
    dictionary = dictionary_of(words)
    analyses = []
    for name, path in system_paths.items():
        system = read_byte_lines(path)
        check_line_alignment(gold, system, gold_path, path)
        analyses.append(analyse_lines(name, gold, system, dictionary))
    return analyses


def analyse_lines(
    name: str, gold: Sequence[bytes], system: Sequence[bytes], dictionary: set[bytes]
) -> SystemAnalysis:
    """Analyse line-aligned gold and system lines (bytes, as sighan reads them)."""
    bucket_lines: Dict[str, Tuple[List[bytes], List[bytes]]] = {label: ([], []) for label, _, _ in LENGTH_BUCKETS}
    length_counts: Dict[int, List[int]] = {length: [0, 0] for length in WORD_LENGTHS}
    errors: Dict[Tuple[str, str], ErrorPattern] = {}
    for line_no, (gold_line, system_line) in enumerate(zip(gold, system), start=1):
        segments = align_words(gold_line, system_line)
        characters = sum(len(_text(word)) for gold_words, _, _ in segments for word in gold_words)
        label = _bucket(characters)
        if label is not None:
            bucket_lines[label][0].append(gold_line)
            bucket_lines[label][1].append(system_line)
        _count_word_lengths(segments, length_counts)
        _collect_errors(segments, line_no, errors)
    counts = Counter({kind: 0 for kind in ERROR_KINDS})
    for pattern in errors.values():
        counts[pattern.kind] += pattern.count
    ranked = sorted(errors.values(), key=lambda pattern: (-pattern.count, pattern.gold, pattern.system))
    return SystemAnalysis(
        name=name,
        score=score_lines(gold, system, dictionary, perl_compat=True),
        buckets={
            label: (len(lines[0]), _score_or_none(lines[0], lines[1], dictionary))
            for label, lines in bucket_lines.items()
        },
        word_length_recall={length: (matched, total) for length, (matched, total) in length_counts.items()},
        error_counts=dict(counts),
        patterns=ranked[:TOP_PATTERNS],
    )


def error_kind(gold_words: Sequence[str], system_words: Sequence[str]) -> str:
    """"split", "merge" or "other" for an unmatched segment (see the module doc)."""
    if "".join(gold_words) != "".join(system_words):
        return "other"
    if len(gold_words) == 1 and len(system_words) > 1:
        return "split"
    if len(gold_words) > 1 and len(system_words) == 1:
        return "merge"
    return "other"


def _text(word: bytes) -> str:
    # The lines were checked to be UTF-8 (check_line_alignment) or are scored as
    # Perl would (bytes); "replace" only keeps the report readable in the latter case.
    return word.decode("utf-8", errors="replace")


def _bucket(characters: int) -> Optional[str]:
    for label, first, last in LENGTH_BUCKETS:
        if characters >= first and (last is None or characters <= last):
            return label
    return None  # an empty line: the scorer skips it too


def _score_or_none(gold: List[bytes], system: List[bytes], dictionary: set[bytes]) -> Optional[SighanScore]:
    try:
        return score_lines(gold, system, dictionary, perl_compat=True)
    except ValueError:  # no words in this bucket
        return None


def _count_word_lengths(segments, length_counts: Dict[int, List[int]]) -> None:
    for gold_words, _, matched in segments:
        for word in gold_words:
            length = min(len(_text(word)), WORD_LENGTHS[-1])
            if length:
                length_counts[length][0] += matched
                length_counts[length][1] += 1


def _collect_errors(segments, line_no: int, errors: Dict[Tuple[str, str], ErrorPattern]) -> None:
    gold_sentence = [[_text(word) for word in gold_words] for gold_words, _, _ in segments]
    for index, (gold_words, system_words, matched) in enumerate(segments):
        if matched:
            continue
        gold_texts, system_texts = gold_sentence[index], [_text(word) for word in system_words]
        key = (" ".join(gold_texts), " ".join(system_texts))
        pattern = errors.get(key)
        if pattern is None:
            pattern = errors[key] = ErrorPattern(error_kind(gold_texts, system_texts), *key)
        pattern.count += 1
        if len(pattern.examples) < EXAMPLES_PER_PATTERN:
            before = [word for words in gold_sentence[:index] for word in words][-CONTEXT_WORDS:]
            after = [word for words in gold_sentence[index + 1 :] for word in words][:CONTEXT_WORDS]
            pattern.examples.append(ErrorExample(line_no, " ".join(before), " ".join(after)))
