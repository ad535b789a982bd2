"""Where lexicons come from: a corpus's own words, jieba's bundled dictionary,
and user-dictionary files in the jieba/pkuseg format."""
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.tokens import Doc

from .lexicon import Lexicon
from .pos_tags import is_known_tag

JIEBA = "jieba"
_FREQUENCY = re.compile(r"[0-9]+")
# Lines with a problem warned about one by one; the rest are counted in one warning.
MAX_LINE_WARNINGS = 10
FORMAT = (
    "the format is 'word [freq] [POS]' separated by spaces, or by tabs when the word holds spaces "
    "('Color OS<TAB>5<TAB>nz', 'Color OS<TAB>' for the word alone)"
)


class UserDictionaryWarning(UserWarning):
    """A user dictionary line read one way that may have meant another (a
    word with spaces without tabs), or with fields left over."""


def read_user_dictionary(path: Union[str, Path]) -> Lexicon:
    """Read a dictionary in the jieba/pkuseg user format, one entry a line (see
    parse_user_dictionary_line): ``word [freq] [POS]`` separated by spaces, or
    by tabs when the line holds a tab (so that a word may contain spaces:
    ``Color OS\t5\tnz``). Blank lines and a UTF-8 BOM are skipped. A line
    with fields left over, or a space-separated POS that is no tag of the
    ICTCLAS (jieba) or CTB sets (``Color OS`` reads as the word ``Color``
    with POS ``OS``), gives a UserDictionaryWarning naming the file and line
    (the first MAX_LINE_WARNINGS lines, then one warning counting the rest);
    a file without a word gives one naming the file.

    RAISES FileNotFoundError: naming a missing file; IsADirectoryError: for a
        folder; ValueError: naming the file and line of bytes that are not
        UTF-8, or of a line with no word before its first tab.
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"Lexicon file is a folder, not a file: {path}")
    if not path.is_file():
        raise FileNotFoundError(f"Lexicon file not found: {path}")
    lexicon, problems = Lexicon(), []
    for line_no, line in _dictionary_lines(path):
        try:
            word, frequency, pos, problem = parse_user_dictionary_line(line)
        except ValueError as err:
            raise ValueError(f"{path}:{line_no}: {err}") from None
        if problem:
            problems.append(f"{path}:{line_no}: {problem}")
        lexicon.add(word, frequency, pos)
    _warn_about_lines(problems, path)
    if not lexicon:
        warnings.warn(
            f"{path} holds no words (it is empty, or all its lines are blank): it adds nothing",
            UserDictionaryWarning,
            stacklevel=2,
        )
    return lexicon


def parse_user_dictionary_line(line: str) -> Tuple[str, Optional[int], Optional[str], Optional[str]]:
    """Read one user dictionary line (no line end): RETURNS (word, frequency,
    POS, problem), None where absent; ``problem`` says why the line may not
    mean what it is read as.

    The rule: the line's fields are separated by tabs if it holds a tab (the
    word may then contain spaces), else by spaces (runs of whitespace). The
    first field is the word; the next, if all digits, its frequency; the next
    its POS. Fields left over are ignored (a problem), and so is an empty
    field between tabs. A space-separated POS that is no tag of the ICTCLAS or
    CTB sets is a problem: the line may be a word with spaces.
    RAISES ValueError: when the line has no word before its first tab.
    """
    tabbed = "\t" in line
    fields = [field.strip() for field in line.split("\t")] if tabbed else line.split()
    word, rest = fields[0], [field for field in fields[1:] if field]
    if not word:
        raise ValueError(f"no word before the first tab ({FORMAT})")
    frequency = int(rest.pop(0)) if rest and _FREQUENCY.fullmatch(rest[0]) else None
    pos = rest.pop(0) if rest else None
    problems = []
    if rest:
        problems.append(f"{' '.join(rest)!r} left over")
    if pos is not None and not tabbed and not is_known_tag(pos):
        problems.append(f"{pos!r} is no POS tag of the ICTCLAS (jieba) or CTB sets")
    if not problems:
        return word, frequency, pos, None
    known = [f"frequency {frequency}"] * (frequency is not None) + [f"POS {pos!r}"] * (pos is not None)
    reading = f"the word {word!r}" + (f" with {' and '.join(known)}" if known else "")
    return word, frequency, pos, f"read as {reading}; {' and '.join(problems)}: {FORMAT}"


def _dictionary_lines(path: Path) -> Iterator[Tuple[int, str]]:
    """(1-based line number, line without its line end) of each non-blank line, BOM dropped.
    RAISES ValueError naming the file and line of bytes that are not UTF-8."""
    with path.open("rb") as handle:
        for line_no, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(f"{path}:{line_no}: not UTF-8 ({err.reason}); convert the file to UTF-8") from err
            line = line.lstrip("\ufeff").rstrip("\r\n")
            if line.strip():
                yield line_no, line


def _warn_about_lines(problems: List[str], path: Path) -> None:
    """A UserDictionaryWarning for each of the first MAX_LINE_WARNINGS problems, one for the rest."""
    for problem in problems[:MAX_LINE_WARNINGS]:
        warnings.warn(problem, UserDictionaryWarning, stacklevel=3)
    if len(problems) > MAX_LINE_WARNINGS:
        more = len(problems) - MAX_LINE_WARNINGS
        warnings.warn(f"{path}: {more} more line(s) read with such problems", UserDictionaryWarning, stacklevel=3)


def jieba_lexicon() -> Lexicon:
    """jieba's bundled ``dict.txt`` (about 349,000 words with frequency and POS;
    MIT licence), read from the installed jieba package; nothing is downloaded.

    RAISES ImportError: if jieba is not installed.
    """
    try:
        import jieba
    except ImportError as err:
        raise ImportError("The 'jieba' lexicon reads jieba's bundled dict.txt: pip install jieba") from err
    return read_user_dictionary(Path(jieba.__file__).parent / "dict.txt")


def load_lexicon(source: str) -> Lexicon:
    """``"jieba"`` for jieba's bundled dictionary, else a path to a user-dictionary file."""
    return jieba_lexicon() if source == JIEBA else read_user_dictionary(source)


def tagged_corpus_lexicon(path: Union[str, Path]) -> Lexicon:
    """The words of a ``word_POS`` corpus file (ZX), each with its count and
    its most frequent tag (the first seen among equals): the
    target-domain word-POS lexicon of Gan & Zhang 2020.

    RAISES FileNotFoundError, CorpusFormatError: as read_text_lines and
        split_word_pos (naming the file and line).
    """
    from ..corpora.formats import read_text_lines, split_word_pos

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    tags: Dict[str, Counter] = {}
    for line_no, line in read_text_lines(path):
        for token in line.removeprefix("\ufeff").split():
            word, tag = split_word_pos(token, path, line_no)
            tags.setdefault(word, Counter())[tag] += 1
    lexicon = Lexicon()
    for word, counts in tags.items():
        lexicon.add(word, sum(counts.values()), counts.most_common(1)[0][0])
    return lexicon


def write_user_dictionary(lexicon: Lexicon, path: Union[str, Path]) -> None:
    """Write a lexicon in the jieba/pkuseg user format (``word [freq] [POS]``
    a line; separated by tabs, with a tab after a lone word, when the word
    holds whitespace), which read_user_dictionary reads back.

    RAISES ValueError: for a word with a tab or line break, or with
        whitespace at its start or end.
    """
    lines = []
    for word, entry in lexicon.items():
        fields = [word] + [str(value) for value in (entry.frequency, entry.pos) if value is not None]
        tabbed = any(character.isspace() for character in word)
        line = "\t".join(fields + [""] * (len(fields) == 1)) if tabbed else " ".join(fields)
        if "\t" in word or "\n" in word or "\r" in word or parse_user_dictionary_line(line)[:3] != (
            word, entry.frequency, entry.pos
        ):
            raise ValueError(f"The word {word!r} cannot be written in the user-dictionary format")
        lines.append(line + "\n")
    Path(path).write_text("".join(lines), encoding="utf-8")


def training_lexicon(docs: Iterable[Doc]) -> Lexicon:
    """The words of gold-segmented Docs (the closed condition's lexicon), with
    their counts as frequencies. Whitespace tokens are not words."""
    counts = {}
    for doc in docs:
        for token in doc:
            if not token.is_space:
                counts[token.text] = counts.get(token.text, 0) + 1
    lexicon = Lexicon()
    for word, count in counts.items():
        lexicon.add(word, count)
    return lexicon
