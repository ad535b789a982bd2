"""Readers for word-segmented corpora: one sentence per line, words separated
by whitespace.

Formats (``FORMATS``):

- ``"sighan"``: SIGHAN 2005 gold and training files, CTB6 ``.seg`` files and
  SIGHAN 2008 (e.g. SXU). Words are separated by any run of whitespace
  (spaces, tabs, U+3000 full-width spaces, ...).
- ``"wordpos"``: ZX (ZhuXian) files, each token ``word_POS``. The POS tag after
  the last ``_`` is dropped, so a word may itself contain ``_``.

Lines end only at ``\\r\\n``, ``\\r`` or ``\\n``; other Unicode line breaks
(U+2028, U+0085, ``\\x1c`` ...) are whitespace *inside* a line, so they
separate words but never sentences. A UTF-8 BOM at the start of the file is
dropped. Blank and whitespace-only lines are not sentences; ``ReadStats``
counts them.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Tuple, Union

FORMATS = ("sighan", "wordpos")


class CorpusFormatError(ValueError):
    """A corpus line that cannot be read: bytes that are not UTF-8, or a token
    that does not fit the format. The message starts with ``FILE:LINE:``
    (1-based line number)."""

    def __init__(self, path: Union[str, Path], line_no: int, reason: str):
        self.path = Path(path)
        self.line_no = line_no
        self.reason = reason
        super().__init__(f"{path}:{line_no}: {reason}")


@dataclass
class SegmentedSentence:
    """One sentence: its 1-based line number in the file and its gold words
    (non-empty strings without whitespace)."""

    line_no: int
    words: List[str]


@dataclass
class ReadStats:
    """Running counts that ``read_segmented`` updates as it reads: lines (blank
    ones included), blank or whitespace-only lines, and bytes read (for
    progress bars)."""

    lines: int = 0
    blank_lines: int = 0
    bytes_read: int = 0


def read_segmented(
    path: Union[str, Path], fmt: str = "sighan", stats: Optional[ReadStats] = None
) -> Iterator[SegmentedSentence]:
    """Yield the sentences of a segmented corpus file, in file order.

    path: the corpus file.
    fmt: one of ``FORMATS``.
    stats: optional counts to update while reading (see ``ReadStats``).

    Raises ValueError for an unknown ``fmt`` and FileNotFoundError for a missing
    file (both at call time), and CorpusFormatError while iterating, for a line
    that is not valid UTF-8 or (``wordpos``) a token with no ``_POS`` suffix.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown corpus format {fmt!r}; expected one of {', '.join(FORMATS)}")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    return _read(path, fmt, stats if stats is not None else ReadStats())


def read_text_lines(path: Path, stats: Optional[ReadStats] = None) -> Iterator[Tuple[int, str]]:
    """Yield (1-based line number, decoded line without its line end) of a UTF-8 file.

    Lines end at ``\\r\\n``, ``\\n`` or ``\\r`` only (never at U+2028, U+0085,
    ...); a BOM is kept. RAISES CorpusFormatError naming the file and line for
    bytes that are not valid UTF-8.
    """
    for line_no, raw in _raw_lines(Path(path), stats if stats is not None else ReadStats()):
        yield line_no, decode_utf8_line(raw, path, line_no)


def decode_utf8_line(raw: bytes, path: Union[str, Path], line_no: int) -> str:
    """Line ``line_no`` (1-based) of the file ``path``, decoded from UTF-8.
    RAISES CorpusFormatError naming the file, line and first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        bad = raw[err.start : err.start + 1].hex()
        reason = f"not valid UTF-8 (byte 0x{bad} at byte {err.start + 1} of the line)"
        raise CorpusFormatError(path, line_no, reason) from err


def _read(path: Path, fmt: str, stats: ReadStats) -> Iterator[SegmentedSentence]:
    for line_no, text in read_text_lines(path, stats):
        if line_no == 1:
            text = text.removeprefix("\ufeff")
        # str.split() splits on every Unicode whitespace character, so no word
        # ever contains whitespace, whatever separator the corpus used.
        tokens = text.split()
        if not tokens:
            stats.blank_lines += 1
            continue
        if fmt == "wordpos":
            tokens = [split_word_pos(token, path, line_no)[0] for token in tokens]
        yield SegmentedSentence(line_no, tokens)


def _raw_lines(path: Path, stats: ReadStats) -> Iterator[Tuple[int, bytes]]:
    """Yield (1-based line number, line bytes without its line end).

    Binary readline splits only after ``\\n``, so a lone ``\\r`` (old Mac line
    end) is split here. Splitting bytes is safe: in UTF-8 the bytes 0x0A and
    0x0D never occur inside a multi-byte character.
    """
    line_no = 0
    with path.open("rb") as file:
        for chunk in file:
            stats.bytes_read += len(chunk)
            for end in (b"\r\n", b"\n", b"\r"):
                if chunk.endswith(end):
                    chunk = chunk[: -len(end)]
                    break
            for line in chunk.split(b"\r"):
                line_no += 1
                stats.lines += 1
                yield line_no, line


def split_word_pos(token: str, path: Union[str, Path], line_no: int) -> Tuple[str, str]:
    """A ``wordpos`` token's word and POS tag. The tag follows the LAST
    underscore ("a_b_NN" -> ("a_b", "NN")).
    RAISES CorpusFormatError naming the file and line for a token not of the form word_POS."""
    word, sep, tag = token.rpartition("_")
    if not sep or not word or not tag:
        raise CorpusFormatError(path, line_no, f"token {token!r} is not of the form word_POS")
    return word, tag
