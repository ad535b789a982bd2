"""The model's reversible view of a text: normalised units with character offsets.

Normalisation (Duan & Zhao 2020 preprocessing; ../shared/spec/seed-models.md A1)
changes only what the model sees. Every unit keeps the offsets of the input
characters it stands for, so words are always cut from the input's own text and
``doc.text`` never changes.

- Full-width to half-width: U+3000 becomes a space, U+FF01-U+FF5E shift down by
  0xFEE0 (a one-to-one character map, so offsets are unchanged).
- Traditional to Simplified with OpenCC (e.g. ``"t2s"``, ``"tw2s"``, ``"hk2s"``),
  character by character in effect: a conversion that changes the length of the
  text is redone per character, so offsets are unchanged.
- Runs: a number (digits with optional ``.``/``·`` fractions and a ``%``) becomes
  one unit ``"0"``; a run of ``[A-Za-z_.]`` becomes one unit ``"X"``. A word
  boundary is never predicted inside a run.
- Whitespace is not a unit: it separates units and forces a word boundary.
"""
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import numpy

NUMBER_SYMBOL = "0"
LATIN_SYMBOL = "X"

# U+3000 (ideographic space) -> space; U+FF01..U+FF5E -> U+0021..U+007E.
_WIDTH_FOLDING = {0x3000: 0x20, **{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}}

# Number and Latin runs, tried in this order at each position (as one scanner
# over "number | latin | any non-space character" would).
_RUN = re.compile(r"(?P<number>[0-9]+(?:[.·][0-9]+)*%?)|(?P<latin>[A-Za-z_.]+)")
_RUN_SYMBOLS = {"number": ord(NUMBER_SYMBOL), "latin": ord(LATIN_SYMBOL)}
# Every character for which str.isspace() is true lies below U+3001.
_SPACE_TABLE = numpy.array([chr(code).isspace() for code in range(0x3001)] + [False])


def code_points(characters: str) -> numpy.ndarray:
    """uint32 (n,): the code point of each character (lone surrogates included)."""
    return numpy.frombuffer(characters.encode("utf-32-le", "surrogatepass"), dtype=numpy.uint32)


def _is_space(codes: numpy.ndarray) -> numpy.ndarray:
    """bool (n,): str.isspace() of each code point."""
    return _SPACE_TABLE[numpy.minimum(codes, len(_SPACE_TABLE) - 1)]


def non_space_positions(characters: str) -> numpy.ndarray:
    """int64 (n,): the offsets of the characters for which str.isspace() is false."""
    return numpy.flatnonzero(~_is_space(code_points(characters)))


@dataclass(frozen=True)
class CharacterView:
    """The units of one text as the model sees them.

    symbols (str): the normalised symbol of each unit, one character per unit
        (a run is "0" or "X"), length n.
    starts (numpy.ndarray): int64 (n,), offset of each unit's first character
        in the input text.
    ends (numpy.ndarray): int64 (n,), offset just past each unit's last character.
    spaced (numpy.ndarray): bool (n,), True where whitespace lies between unit
        i-1 and unit i, so a word must start at unit i (False for unit 0).
    """

    symbols: str
    starts: numpy.ndarray
    ends: numpy.ndarray
    spaced: numpy.ndarray

    def __len__(self) -> int:
        return len(self.symbols)


@lru_cache(maxsize=8)
def _opencc_converter(config: str):
    try:
        import opencc
    except ImportError as err:  # pragma: no cover - opencc is a dependency
        raise ImportError(
            "Traditional-to-Simplified normalisation needs OpenCC: pip install opencc==1.4.2"
        ) from err
    try:
        return opencc.OpenCC(config)
    except Exception as err:
        raise ValueError(
            f"Unknown OpenCC configuration '{config}': use one of t2s, tw2s, hk2s, tw2sp"
        ) from err


class Normaliser:
    """Maps a text to its :class:`CharacterView`.

    fold_width (bool): fold full-width forms to half-width.
    collapse_runs (bool): make number and Latin runs single units ("0", "X").
    opencc (Optional[str]): OpenCC configuration for Traditional to Simplified
        conversion (e.g. "t2s", "tw2s", "hk2s"), or None for no conversion.
    """

    def __init__(self, *, fold_width: bool = True, collapse_runs: bool = True, opencc: Optional[str] = None):
        self.fold_width = fold_width
        self.collapse_runs = collapse_runs
        self.opencc = opencc
        if opencc:
            _opencc_converter(opencc)  # fail at construction, not on the first text

    def normalise_characters(self, text: str) -> str:
        """The text with width folding and OpenCC applied; same length as ``text``."""
        if self.fold_width:
            text = text.translate(_WIDTH_FOLDING)
        if self.opencc:
            converter = _opencc_converter(self.opencc)
            converted = converter.convert(text)
            if len(converted) != len(text):
                # A phrase conversion changed the length: convert character by
                # character so every offset still points at its own character.
                converted = "".join(
                    c2 if len(c2 := converter.convert(c)) == 1 else c for c in text
                )
            text = converted
        return text

    def __call__(self, text: str) -> CharacterView:
        """Build the view of ``text``; never raises on any str input.

        Vectorised over characters with numpy; Python loops only over number
        and Latin runs (whole runs, not their characters).
        """
        normalised = self.normalise_characters(text)
        codes = code_points(normalised).copy()
        length = len(codes)
        is_unit = ~_is_space(codes)
        runs = [(m.start(), m.end(), _RUN_SYMBOLS[m.lastgroup]) for m in _RUN.finditer(normalised)] if self.collapse_runs else []
        if runs:
            run_starts, run_ends, run_symbols = (numpy.asarray(column, dtype=numpy.int64) for column in zip(*runs))
            # +1 after each run's first character, -1 at its end: > 0 inside a run
            # (int8: runs do not overlap, so the count is 0 or 1).
            inside = numpy.zeros(length + 1, dtype=numpy.int8)
            numpy.add.at(inside, run_starts + 1, 1)
            numpy.add.at(inside, run_ends, -1)
            is_unit &= numpy.cumsum(inside, dtype=numpy.int8)[:length] == 0
            del inside
            codes[run_starts] = run_symbols
        starts = numpy.flatnonzero(is_unit).astype(numpy.int64, copy=False)
        # A unit is one character, or a whole run from the run's first character.
        ends = starts + 1
        if runs:
            ends[numpy.searchsorted(starts, run_starts)] = run_ends
        symbols = codes[starts].tobytes().decode("utf-32-le", "surrogatepass")
        spaced = numpy.zeros(len(starts), dtype=bool)
        spaced[1:] = starts[1:] != ends[:-1]
        return CharacterView(symbols, starts, ends, spaced)
