"""A lexicon: words, each with an optional frequency and part of speech."""
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Sequence


@dataclass(frozen=True)
class LexiconEntry:
    """What a lexicon knows of one word: its frequency (a count in the source,
    or None) and its part of speech (a tag such as "n", or None)."""

    frequency: Optional[int] = None
    pos: Optional[str] = None


class Lexicon:
    """Words with optional frequency and POS, in insertion order.

    A word added twice keeps the first frequency and POS it was given, and
    takes the later ones only where the first were None (jieba's rule for a
    user dictionary: the first entry wins).
    RAISES ValueError: for an empty or whitespace-only word.
    """

    def __init__(self, words: Iterable[str] = ()):
        self._entries: Dict[str, LexiconEntry] = {}
        for word in words:
            self.add(word)

    def add(self, word: str, frequency: Optional[int] = None, pos: Optional[str] = None) -> None:
        if not word or word.isspace():
            raise ValueError(f"A lexicon word must contain a non-space character, got {word!r}")
        old = self._entries.get(word)
        if old is not None:
            frequency = old.frequency if old.frequency is not None else frequency
            pos = old.pos if old.pos is not None else pos
        self._entries[word] = LexiconEntry(frequency, pos)

    def update(self, other: "Lexicon") -> None:
        """Add every entry of ``other`` (see ``add`` for repeated words)."""
        for word, entry in other.items():
            self.add(word, entry.frequency, entry.pos)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, word: str) -> bool:
        return word in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __getitem__(self, word: str) -> LexiconEntry:
        return self._entries[word]

    def items(self):
        return self._entries.items()

    def to_list(self) -> List[list]:
        """JSON-ready rows [word, frequency, pos] (None where unknown)."""
        return [[word, entry.frequency, entry.pos] for word, entry in self._entries.items()]

    @classmethod
    def from_list(cls, rows: Sequence[Sequence]) -> "Lexicon":
        """The inverse of ``to_list``."""
        lexicon = cls()
        for word, frequency, pos in rows:
            lexicon.add(word, frequency, pos)
        return lexicon
