"""Check that a system segmentation is line-aligned with its gold file.

The SIGHAN Perl script pairs gold and system lines blindly: it stops at the
shorter file and scores any two lines against each other, whatever their
characters, so a missing, extra or shifted line changes the numbers without a
word of warning. Before scoring, the scorer (unless asked for Perl's
behaviour) checks that both files are UTF-8, have the same number of lines
and that every system line holds the same characters as its gold line.
``evaluate`` checks its gold against its test input the same way, letting
each line differ in one place by a few characters (see check_line_alignment).
"""
import os
from pathlib import Path
from typing import List, Sequence, Union

from ..corpora.formats import decode_utf8_line

_BOM = "\ufeff"
# Whitespace the scorer splits on (ASCII, as Perl's \s on bytes) and U+3000,
# which it turns into a space; a leading BOM is no text either.
_NOT_TEXT = str.maketrans("", "", " \t\n\r\f\v\u3000")


class LineMismatchError(ValueError):
    """Gold and system files that are not line-aligned. ``line_no`` is the
    first differing line (1-based)."""

    def __init__(self, line_no: int, reason: str):
        self.line_no = line_no
        super().__init__(f"line {line_no}: {reason}")


def check_line_alignment(
    gold_lines: Sequence[bytes],
    system_lines: Sequence[bytes],
    gold_name: Union[str, Path] = "gold",
    system_name: Union[str, Path] = "system",
    max_difference: int = 0,
) -> None:
    """Check that the system lines are the gold lines, segmented.

    gold_lines, system_lines: the files' lines as bytes (line end optional).
    Blank lines at the end of either file are ignored; whitespace inside a
    line and a leading BOM are not text.
    max_difference: how many characters a system line may hold in place of
        its gold line's, all in one place of the line (character_difference);
        0: the same characters. An official test input differs from its gold
        so on a few lines: MSR's gold ends a line with the opening quotation
        mark that begins the next input line, AS's has an ASCII letter where
        its input has the full-width one. A missing, added or moved line
        makes the lines after it differ throughout.
    RAISES CorpusFormatError (``FILE:LINE: not valid UTF-8 ...``) for a line
        of either file that is not UTF-8, e.g. a GBK file;
        LineMismatchError naming the first line that is missing, extra or
        holds other characters (more than max_difference).
    """
    gold = _texts(gold_lines, gold_name)
    system = _texts(system_lines, system_name)
    for line_no, (gold_text, system_text) in enumerate(zip(gold, system), start=1):
        if gold_text != system_text and character_difference(gold_text, system_text) > max_difference:
            allowed = f" (more than {max_difference} characters in one place)" if max_difference else ""
            raise LineMismatchError(
                line_no,
                f"{system_name} holds other characters than {gold_name}{allowed}: "
                f"{gold_text!r} in {gold_name}, {system_text!r} in {system_name}",
            )
    if len(gold) != len(system):
        raise LineMismatchError(
            min(len(gold), len(system)) + 1,
            f"{gold_name} has {len(gold)} lines but {system_name} has {len(system)} "
            "(not counting blank lines at the end)",
        )


def character_difference(first: str, second: str) -> int:
    """How many characters of the longer text lie between the common start
    and the common end of the two texts: 0 for the same text, 1 for one
    character added, removed or replaced, about the whole text for unrelated ones."""
    start = len(os.path.commonprefix([first, second]))
    end = len(os.path.commonprefix([first[start:][::-1], second[start:][::-1]]))
    return max(len(first), len(second)) - start - end


def check_word_list(lines: Sequence[bytes], name: Union[str, Path] = "word list") -> None:
    """Check a training word list as the gold and system files are checked:
    UTF-8, and not empty.

    RAISES CorpusFormatError (``FILE:LINE: not valid UTF-8 ...``) for a line
        that is not UTF-8, e.g. a GBK file; ValueError when it holds no word.
    """
    if not _texts(lines, name):
        raise ValueError(f"{name} holds no words: give the training word list, one word a line (UTF-8)")


def _texts(lines: Sequence[bytes], name: Union[str, Path]) -> List[str]:
    """Each line's characters without whitespace; trailing blank lines dropped."""
    texts = []
    for line_no, raw in enumerate(lines, start=1):
        text = decode_utf8_line(raw, name, line_no).translate(_NOT_TEXT)
        texts.append(text.removeprefix(_BOM) if line_no == 1 else text)
    while texts and not texts[-1]:
        texts.pop()
    return texts
