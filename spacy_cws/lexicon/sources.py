"""Where lexicons come from: a corpus's own words, jieba's bundled dictionary,
and user-dictionary files in the jieba/pkuseg format."""
import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, Union

from spacy.tokens import Doc

from .lexicon import Lexicon

JIEBA = "jieba"
# jieba's own user-dictionary line rule (jieba/__init__.py, re_userdict): a word
# (which may contain spaces), then optionally a frequency, then optionally a POS.
_USER_DICT_LINE = re.compile(r"^(.+?)( [0-9]+)?( [a-zA-Z]+)?$")


def read_user_dictionary(path: Union[str, Path]) -> Lexicon:
    """Read a dictionary in the jieba/pkuseg user format: one ``word [freq] [POS]``
    a line (jieba's rule, so a word may contain spaces; a tab also separates the
    fields, as pkuseg writes them). Blank lines and a UTF-8 BOM are skipped.

    RAISES FileNotFoundError: naming a missing file; ValueError: naming the
        file and line of bytes that are not UTF-8.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Lexicon file not found: {path} (give a file in the jieba format 'word [freq] [POS]')")
    lexicon = Lexicon()
    with path.open("rb") as handle:
        for line_no, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(f"{path}:{line_no}: not UTF-8 ({err.reason}); convert the file to UTF-8") from err
            line = line.lstrip("\ufeff").rstrip("\r\n").replace("\t", " ").strip()
            if not line:
                continue
            word, frequency, pos = _USER_DICT_LINE.match(line).groups()
            lexicon.add(word.strip(), int(frequency) if frequency else None, pos.strip() if pos else None)
    return lexicon


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
    its most frequent tag (the first seen among equals): seed 003's
    target-domain word-POS lexicon.

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
    a line), which read_user_dictionary reads back.

    RAISES ValueError: for a word with a line break or ending in what would
        read as a frequency or tag (a space then digits or letters).
    """
    lines = []
    for word, entry in lexicon.items():
        fields = [word] + [str(value) for value in (entry.frequency, entry.pos) if value is not None]
        line = " ".join(fields)
        if "\n" in word or "\r" in word or _USER_DICT_LINE.match(line).group(1) != word:
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
