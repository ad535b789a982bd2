"""Readers for word-segmented corpora: one sentence per line, words separated
by whitespace.

Formats (``FORMATS``):

- ``"sighan"``: SIGHAN 2005 gold and training files, CTB6 ``.seg`` files and
  SIGHAN 2008 (e.g. SXU). Words are separated by any run of whitespace
  (spaces, tabs, U+3000 full-width spaces, ...).
- ``"wordpos"``: ZX (ZhuXian) files, each token ``word_POS``. The POS tag after
  the last ``_`` is dropped, so a word may itself contain ``_``.
- ``"pfr"``: People's Daily 1998 as PKU ICL released it (PFR, ``199801.txt``):
  **GBK**, a paragraph a line, first its id (``19980101-01-001-001/m``, dropped)
  then ``word/TAG`` tokens separated by spaces; the tag after the last ``/`` is
  dropped, and so are the ``[`` and ``]TAG`` around compound names
  (``[中国/ns  政府/n]nt`` is the words 中国, 政府). Full-width characters stay
  as they are; a line holding its id alone counts as blank.
- ``"bies"``: one character a line, ``CHARACTER<TAB>TAG`` with the tags B, I
  (or M), E, S of the word each character begins, continues, ends or is, and
  a blank line after each sentence (e.g. the SIGHAN 2005 training samples);
  a sentence's line number is that of its first character.

Lines end only at ``\\r\\n``, ``\\r`` or ``\\n`` (so PFR's stray ``\\r`` before its
``\\r\\n`` makes a blank line); other Unicode line breaks
(U+2028, U+0085, ``\\x1c`` ...) are whitespace *inside* a line, so they
separate words but never sentences. A UTF-8 BOM at the start of the file is
dropped. Blank and whitespace-only lines are not sentences; ``ReadStats``
counts them.
"""
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Tuple, Union

FORMATS = ("sighan", "wordpos", "pfr", "bies")
ENCODINGS = {"pfr": "gbk"}  # every other format is UTF-8
# A PFR paragraph id as its line starts (the official SIGHAN PKU training file
# keeps a few inside its lines, without the /m tag).
PFR_ID = re.compile(r"19\d{6}-\d{2}-\d{3}-\d{3}")
BIES_TAGS = {"B": "B", "I": "I", "M": "I", "E": "E", "S": "S"}


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
    that is not valid UTF-8 (GBK for ``pfr``), a ``wordpos`` token with no
    ``_POS`` suffix, a ``pfr`` line without its paragraph id or a token with no
    ``/TAG``, or a ``bies`` line that is not ``CHARACTER TAG`` or a tag that
    breaks the word (I or E with no word begun, B or S inside one, a sentence
    ending inside a word).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown corpus format {fmt!r}; expected one of {', '.join(FORMATS)}")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    stats = stats if stats is not None else ReadStats()
    return _read_bies(path, stats) if fmt == "bies" else _read(path, fmt, stats)


def read_text_lines(
    path: Path, stats: Optional[ReadStats] = None, encoding: str = "utf-8"
) -> Iterator[Tuple[int, str]]:
    """Yield (1-based line number, decoded line without its line end) of a
    text file (UTF-8 unless ``encoding`` says otherwise), numbered as
    read_segmented numbers them.

    Lines end at ``\\r\\n``, ``\\n`` or ``\\r`` only (never at U+2028, U+0085,
    ...); a BOM is kept. RAISES CorpusFormatError naming the file and line for
    bytes that are not valid in the encoding.
    """
    for line_no, raw in _raw_lines(Path(path), stats if stats is not None else ReadStats()):
        yield line_no, decode_line(raw, path, line_no, encoding)


def decode_utf8_line(raw: bytes, path: Union[str, Path], line_no: int) -> str:
    """Line ``line_no`` (1-based) of the file ``path``, decoded from UTF-8.
    RAISES CorpusFormatError naming the file, line and first bad byte."""
    return decode_line(raw, path, line_no, "utf-8")


def decode_line(raw: bytes, path: Union[str, Path], line_no: int, encoding: str) -> str:
    """Line ``line_no`` (1-based) of the file ``path``, decoded from ``encoding``.
    RAISES CorpusFormatError naming the file, line, encoding and first bad byte."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as err:
        bad = raw[err.start : err.start + 1].hex()
        reason = f"not valid {encoding.upper()} (byte 0x{bad} at byte {err.start + 1} of the line)"
        raise CorpusFormatError(path, line_no, reason) from err


def _read(path: Path, fmt: str, stats: ReadStats) -> Iterator[SegmentedSentence]:
    encoding = ENCODINGS.get(fmt, "utf-8")
    for line_no, raw in _raw_lines(path, stats):
        text = decode_line(raw, path, line_no, encoding)
        if line_no == 1:
            text = text.removeprefix("\ufeff")
        # str.split() splits on every Unicode whitespace character, so no word
        # ever contains whitespace, whatever separator the corpus used.
        tokens = text.split()
        if tokens and fmt == "wordpos":
            tokens = [split_word_pos(token, path, line_no)[0] for token in tokens]
        elif tokens and fmt == "pfr":
            tokens = pfr_words(tokens, path, line_no)
        if not tokens:  # a blank line, or a PFR paragraph id alone
            stats.blank_lines += 1
            continue
        yield SegmentedSentence(line_no, tokens)


def _read_bies(path: Path, stats: ReadStats) -> Iterator[SegmentedSentence]:
    sentence: Optional[SegmentedSentence] = None
    inside = False  # the last tag began or continued a word that has not ended
    for line_no, raw in _raw_lines(path, stats):
        text = decode_line(raw, path, line_no, "utf-8")
        if line_no == 1:
            text = text.removeprefix("\ufeff")
        fields = text.split()
        if not fields:
            stats.blank_lines += 1
            if sentence is not None:
                yield _ended(sentence, inside, path, line_no - 1)
            sentence, inside = None, False
            continue
        tag = BIES_TAGS.get(fields[-1])
        if len(fields) != 2 or len(fields[0]) != 1 or tag is None:
            raise CorpusFormatError(path, line_no, f"expected 'CHARACTER TAG' with a tag B, I, M, E or S, got {text!r}")
        if tag in "BS":
            if inside:
                reason = f"tag {fields[-1]} inside a word (the word begun before never ended)"
                raise CorpusFormatError(path, line_no, reason)
            if sentence is None:
                sentence = SegmentedSentence(line_no, [])
            sentence.words.append(fields[0])
        elif not inside:
            raise CorpusFormatError(path, line_no, f"tag {fields[-1]} continues no word (a word begins with B)")
        else:
            sentence.words[-1] += fields[0]
        inside = tag in "BI"
    if sentence is not None:
        yield _ended(sentence, inside, path, stats.lines)


def _ended(sentence: SegmentedSentence, inside: bool, path: Path, last_line: int) -> SegmentedSentence:
    if inside:
        raise CorpusFormatError(path, last_line, "the sentence ends inside a word (its last tag is B or I, not E or S)")
    return sentence


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


def pfr_words(tokens: List[str], path: Union[str, Path], line_no: int) -> List[str]:
    """The words of a ``pfr`` line's tokens (``pfr_tagged_words`` without the tags).
    RAISES CorpusFormatError as pfr_tagged_words does."""
    return [word for word, _ in pfr_tagged_words(tokens, path, line_no)]


def pfr_tagged_words(tokens: List[str], path: Union[str, Path], line_no: int) -> List[Tuple[str, str]]:
    """(word, PKU tag) for each word of a ``pfr`` line's tokens: the paragraph
    id first (dropped), then ``word/TAG`` tokens, the tag after the last ``/``.
    A compound name keeps its inner words with their own tags: the ``[`` that
    opens it (``[中国/ns``) and the ``]TAG`` that closes it (``政府/n]nt``) are
    dropped. RAISES CorpusFormatError naming the file and line for a line that
    does not start with a paragraph id or a token not of the form word/TAG."""
    ident, _, _ = tokens[0].rpartition("/")
    if not PFR_ID.fullmatch(ident):
        reason = f"expected a paragraph id like 19980101-01-001-001/m first, got {tokens[0]!r}"
        raise CorpusFormatError(path, line_no, reason)
    tagged = []
    for token in tokens[1:]:
        word, sep, tag = token.rpartition("/")
        if len(word) > 1 and word.startswith("["):
            word = word[1:]
        tag = tag.partition("]")[0]
        if not sep or not word or not tag:
            raise CorpusFormatError(path, line_no, f"token {token!r} is not of the form word/TAG")
        tagged.append((word, tag))
    return tagged
