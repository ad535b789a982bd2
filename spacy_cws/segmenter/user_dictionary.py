"""A user dictionary: words the segmenter must keep whole (pkuseg's ``user_dict``,
jieba's ``load_userdict``/``add_word``/``del_word``).

Words are found with an Aho-Corasick automaton (pyahocorasick) over the text
with full-width forms folded, so finding them is linear in the text's length.
Overlapping matches are resolved by one rule: the longest word first, then the
leftmost. A word that begins (ends) with a Latin letter or digit matches only
where the text has no Latin letter or digit just before (after) it, so "ces"
is never cut out of "license" (jieba#514). Entries may contain spaces,
hyphens, digits and Latin letters ("Color OS", "SK-II", "5w-30").
"""
from typing import Iterable, List

import numpy

from ..features.character_view import _WIDTH_FOLDING


def _is_latin_or_digit(character: str) -> bool:
    return character.isascii() and character.isalnum()


class UserDictionary:
    """The words of a user dictionary and where they occur in a text.

    Readers are thread-safe: a change builds a new automaton and swaps it in
    whole (changes from several threads at once are not supported).
    RAISES ValueError: when adding an empty or whitespace-only word.
    """

    def __init__(self, words: Iterable[str] = ()):
        self._words: List[str] = []
        self._automaton = None
        self.add(words)

    @property
    def words(self) -> List[str]:
        """The words, in the order they were added."""
        return list(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def add(self, words: Iterable[str]) -> None:
        """Add words (a word already there is kept once).

        RAISES TypeError: naming an item that is not a str (e.g. 123);
            ValueError: for an empty or whitespace-only word.
        """
        words = [words] if isinstance(words, str) else list(words)
        not_text = [word for word in words if not isinstance(word, str)]
        if not_text:
            raise TypeError(
                f"A user dictionary word must be a str, got {not_text[0]!r} ({type(not_text[0]).__name__})"
                + (f" and {len(not_text) - 1} more" if len(not_text) > 1 else "")
            )
        bad = [word for word in words if not word.strip()]
        if bad:
            raise ValueError(f"A user dictionary word must contain a non-space character, got {bad[:3]!r}")
        known = set(self._words)
        self._rebuild(self._words + [word for word in dict.fromkeys(words) if word not in known])

    def remove(self, words: Iterable[str]) -> None:
        """Remove words; a word that is not there is ignored."""
        gone = {words} if isinstance(words, str) else set(words)
        self._rebuild([word for word in self._words if word not in gone])

    def _rebuild(self, words: List[str]) -> None:
        import ahocorasick  # pyahocorasick

        automaton = None
        if words:
            automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)  # C ints, not Python objects
            for word in words:
                folded = word.translate(_WIDTH_FOLDING)
                automaton.add_word(folded, len(folded))
            automaton.make_automaton()
        self._words, self._automaton = words, automaton

    def matches(self, text: str) -> numpy.ndarray:
        """The dictionary words to keep whole in ``text``.

        RETURNS int64 (k, 2): sorted, non-overlapping [start, end) character
        offsets, chosen longest first, then leftmost, at Latin word boundaries.
        """
        automaton = self._automaton
        if automaton is None or not text:
            return numpy.zeros((0, 2), dtype=numpy.int64)
        folded = text.translate(_WIDTH_FOLDING)
        found = []
        for end, length in automaton.iter(folded):
            start = end - length + 1
            if _is_latin_or_digit(folded[start]) and start > 0 and _is_latin_or_digit(folded[start - 1]):
                continue
            if _is_latin_or_digit(folded[end]) and end + 1 < len(folded) and _is_latin_or_digit(folded[end + 1]):
                continue
            found.append((start, end + 1))
        return select_longest_leftmost(found, len(text))


def select_longest_leftmost(spans: List[tuple], text_length: int) -> numpy.ndarray:
    """Resolve overlapping [start, end) spans: the longest first, then the
    leftmost; a span overlapping one already chosen is dropped.
    RETURNS int64 (k, 2), sorted by start."""
    taken = numpy.zeros(text_length, dtype=bool)
    chosen = []
    for start, end in sorted(spans, key=lambda span: (span[0] - span[1], span[0])):
        if not taken[start:end].any():
            taken[start:end] = True
            chosen.append((start, end))
    return numpy.asarray(sorted(chosen), dtype=numpy.int64).reshape(-1, 2)
