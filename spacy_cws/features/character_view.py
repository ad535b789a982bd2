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
- Runs (letter_runs.py): a number becomes one unit ``"0"``, a Latin word
  (diacritics, ligatures, "can't", "state-of-the-art" included) one unit
  ``"X"``, a word of another alphabetic script one unit with its script's
  symbol. A word boundary is never predicted inside a run, and a run of a
  script other than Latin (or of control characters) is a word of its own.
- A grapheme cluster (grapheme_clusters.py: a character with its variation
  selector or zero-width joiner, an emoji sequence, a flag) is one unit with
  the symbol of its first character: the model sees "中\\ufe0f文" as "中文",
  and no boundary falls inside a cluster.
- Whitespace is not a unit: it separates units and forces a word boundary.
"""
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import List, Optional, Sequence

import numpy

from .grapheme_clusters import grapheme_clusters
from .letter_runs import ALONE_KINDS, LATIN_SYMBOL, NUMBER_SYMBOL, RUN_SYMBOLS, find_runs

__all__ = [
    "CharacterView",
    "LATIN_SYMBOL",
    "NUMBER_SYMBOL",
    "Normaliser",
    "code_points",
    "laid_end_to_end",
    "non_space_positions",
]

# U+FF01..U+FF5E -> U+0021..U+007E (full-width ASCII forms: Ｉ Ｂ Ｍ, １９９８, ％).
FULL_WIDTH_ASCII = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
# ... and U+3000 (ideographic space) -> space.
_WIDTH_FOLDING = {0x3000: 0x20, **FULL_WIDTH_ASCII}
_FULL_WIDTH_ALPHANUMERIC = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")

# Every character for which str.isspace() is true lies below U+3001.
_SPACE_TABLE = numpy.array([chr(code).isspace() for code in range(0x3001)] + [False])


def half_width_alphanumerics(word: str) -> str:
    """``word`` with its full-width ASCII forms as ASCII where it holds a
    full-width Latin letter or digit (ＩＢＭ -> IBM, ３．５％ -> 3.5%); a word
    without one (the punctuation ，) as it is: how most Chinese text writes them."""
    return word.translate(FULL_WIDTH_ASCII) if _FULL_WIDTH_ALPHANUMERIC.search(word) else word


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
    alone (numpy.ndarray): bool (n,), True where a word must start at unit i
        because unit i begins, or unit i-1 ends, a run that is a word of its
        own (another script than Latin, control characters).
    runs (numpy.ndarray): int64 (k, 2), the [start, end) character offsets of
        the runs of more than one character, never cut inside (also when
        ``collapse_runs`` is off and a run is several units).
    clusters (numpy.ndarray): int64 (c, 2), the [start, end) character offsets
        of the grapheme clusters of more than one character, never cut inside.
    """

    symbols: str
    starts: numpy.ndarray
    ends: numpy.ndarray
    spaced: numpy.ndarray
    alone: numpy.ndarray
    runs: numpy.ndarray
    clusters: numpy.ndarray

    def __len__(self) -> int:
        return len(self.symbols)


def laid_end_to_end(views: Sequence[CharacterView], field: str) -> numpy.ndarray:
    """The ``field`` arrays ("starts", "spaced", ...) of ``views`` concatenated;
    for one view its own array, not a copy. Read it, do not write to it."""
    arrays = [getattr(view, field) for view in views]
    return arrays[0] if len(arrays) == 1 else numpy.concatenate(arrays)


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
    collapse_runs (bool): make each run a single unit ("0", "X", a script's
        symbol; letter_runs.py). Runs are never cut inside either way.
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

        Vectorised over characters with numpy; Python loops only over runs
        (whole runs, not their characters).
        """
        return self._joined_view(self.normalise_characters(text), grapheme_clusters(text))

    def views(self, texts: Sequence[str]) -> List[CharacterView]:
        """The views of ``texts``: equal to ``[self(text) for text in texts]``,
        built over all texts at once (one numpy pass instead of a dozen small
        ones per text).

        The normalised texts are joined by "\\n", which is whitespace, so it
        is no unit and no run crosses it; what depends on a text's edges is
        then set as the text alone gives it: its first unit is not
        ``spaced``, and is ``alone`` only if it begins a run of its own.
        Grapheme clusters are found text by text: most Chinese sentences skip
        the cluster scan, a batch of them joined nearly never does.
        """
        if len(texts) < 2:
            return [self(text) for text in texts]
        normalised = [self.normalise_characters(text) for text in texts]
        lengths = numpy.fromiter(map(len, normalised), dtype=numpy.int64, count=len(normalised))
        offsets = numpy.concatenate([[0], numpy.cumsum(lengths + 1)])[:-1]
        clusters = [grapheme_clusters(text) for text in texts]
        laid = [spans + offset for spans, offset in zip(clusters, offsets.tolist()) if len(spans)]
        whole = self._joined_view("\n".join(normalised), numpy.concatenate(laid) if laid else clusters[0], offsets)
        bounds = numpy.searchsorted(whole.starts, numpy.append(offsets, offsets[-1] + lengths[-1] + 1)).tolist()
        run_bounds = numpy.searchsorted(whole.runs[:, 0], offsets).tolist() + [len(whole.runs)]
        views = []
        for k, offset in enumerate(offsets.tolist()):
            first, last = bounds[k], bounds[k + 1]
            views.append(
                CharacterView(
                    whole.symbols[first:last],
                    whole.starts[first:last] - offset,
                    whole.ends[first:last] - offset,
                    whole.spaced[first:last],
                    whole.alone[first:last],
                    whole.runs[run_bounds[k] : run_bounds[k + 1]] - offset,
                    clusters[k],
                )
            )
        return views

    def _joined_view(
        self, normalised: str, clusters: numpy.ndarray, text_offsets: Optional[numpy.ndarray] = None
    ) -> CharacterView:
        """The view of a normalised text with the grapheme clusters of its
        input text; ``text_offsets``: where the texts joined in it by "\\n"
        begin (views), or None for one text."""
        codes = code_points(normalised).copy()
        length = len(codes)
        is_unit = ~_is_space(codes)
        run_starts, run_ends, run_kinds = find_runs(normalised)
        # The spans that are one unit each: the clusters, and the runs when they are collapsed.
        one_unit = clusters
        if self.collapse_runs:
            one_unit = numpy.concatenate([clusters, numpy.stack([run_starts, run_ends], axis=1)])
        # +1 after each span's first character, -1 at its end: > 0 inside one
        # (int8: clusters do not overlap each other, nor runs, so the count is 0 to 2).
        inside = numpy.zeros(length + 1, dtype=numpy.int8)
        numpy.add.at(inside, one_unit[:, 0] + 1, 1)
        numpy.add.at(inside, one_unit[:, 1], -1)
        # A character inside a span continues the unit of the one before, unless that one is whitespace.
        continues = numpy.cumsum(inside, dtype=numpy.int8)[:length] > 0
        del inside
        continues[1:] &= is_unit[:-1]
        if self.collapse_runs and len(run_starts):
            symbols = RUN_SYMBOLS[run_kinds]
            codes[run_starts] = numpy.where(symbols > 0, symbols, codes[run_starts])
        starts = numpy.flatnonzero(is_unit & ~continues).astype(numpy.int64, copy=False)
        # A unit ends where the next one starts or at whitespace.
        stops = numpy.append(numpy.flatnonzero(~is_unit | ~continues), length)
        ends = stops[numpy.searchsorted(stops, starts, side="right")]
        symbols = codes[starts].tobytes().decode("utf-32-le", "surrogatepass")
        spaced = numpy.zeros(len(starts), dtype=bool)
        spaced[1:] = starts[1:] != ends[:-1]
        alone = numpy.zeros(len(starts) + 1, dtype=bool)
        own = ALONE_KINDS[run_kinds]
        after_own_run = numpy.searchsorted(starts, run_ends[own])
        if text_offsets is not None:  # a text's first unit: as in the text alone
            firsts = numpy.searchsorted(starts, text_offsets)
            spaced[firsts[firsts < len(starts)]] = False
            after_own_run = after_own_run[~numpy.isin(after_own_run, firsts)]
        alone[after_own_run] = True
        # The unit that holds the run's first character (a cluster may begin before it).
        alone[numpy.searchsorted(starts, run_starts[own], side="right") - 1] = True
        multi = run_ends - run_starts > 1
        runs = numpy.stack([run_starts[multi], run_ends[multi]], axis=1)
        return CharacterView(symbols, starts, ends, spaced, alone[: len(starts)], runs, clusters)
