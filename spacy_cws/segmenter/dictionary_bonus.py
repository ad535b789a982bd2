"""The user dictionary's "prefer" mode for a model without lexicon features: a
soft bonus in decoding.

A model with a lexicon sees the user words as lexicon features (they join its
last channel) and decides itself. A model without one cannot see them, so the
bonus is added to its scores before decoding, in logit units, for each
dictionary match (user_dictionary.py: longest first, then leftmost):

- gaps (GD-Transformer): +bonus for "boundary" at the word's two edges and
  +bonus for "no boundary" at each gap inside it;
- B/M/E/S tags (BMES taggers): +bonus for B at its first unit, M inside, E at
  its last unit (S for a one-unit word), before Viterbi or argmax.

Unlike "force", a confident model can still overrule the dictionary: the
bonus shifts each decision by ``bonus`` nats, where the model's own margin is
usually larger on clear cases (e.g. a dictionary word inside a longer one).
A match that does not start and end on units (part of a number or Latin run)
or that crosses a model sequence's edge gets no bonus.
"""
from typing import List, Sequence, Tuple

import numpy

from ..decoding.bmes_tags import B, E, M, S
from ..features.character_view import CharacterView

NO_BOUNDARY, BOUNDARY = 0, 1


def _unit_spans(view: CharacterView, matches: numpy.ndarray) -> numpy.ndarray:
    """int64 (k', 2): the [first, last + 1) units of each match that starts and
    ends on unit edges."""
    if not len(matches) or not len(view):
        return numpy.zeros((0, 2), dtype=numpy.int64)
    first = numpy.searchsorted(view.starts, matches[:, 0])
    last = numpy.searchsorted(view.ends, matches[:, 1])
    n = len(view)
    aligned = (first < n) & (last < n)
    first, last = first[aligned], last[aligned]
    aligned = (view.starts[first] == matches[aligned, 0]) & (view.ends[last] == matches[aligned, 1]) & (last >= first)
    return numpy.stack([first[aligned], last[aligned] + 1], axis=1).astype(numpy.int64)


def _add_gap_bonus(score: numpy.ndarray, first: int, end: int, bonus: float) -> None:
    """score: (H, n + 1, 2) gap logits of one sequence, edited in place."""
    score[:, [first, end], BOUNDARY] += bonus
    score[:, first + 1 : end, NO_BOUNDARY] += bonus


def _add_tag_bonus(score: numpy.ndarray, first: int, end: int, bonus: float) -> None:
    """score: (1, n, 4) B/M/E/S emissions of one sequence, edited in place."""
    if end - first == 1:
        score[:, first, S] += bonus
        return
    score[:, first, B] += bonus
    score[:, first + 1 : end - 1, M] += bonus
    score[:, end - 1, E] += bonus


BONUS_BY_SCHEME = {"gaps": _add_gap_bonus, "bmes": _add_tag_bonus}


def add_dictionary_bonus(
    scores: List[numpy.ndarray],
    views: Sequence[CharacterView],
    spans: Sequence[Sequence[Tuple[int, int]]],
    matches: Sequence[numpy.ndarray],
    bonus: float,
    scheme: str,
) -> List[numpy.ndarray]:
    """The scores with the bonus for every dictionary match.

    scores: per model sequence, flat over texts in order, (H, n + 1, 2) gap
        logits ("gaps") or (1, n, 4) tag emissions ("bmes").
    views, spans: per text its CharacterView and its sequences' [start, end) unit spans.
    matches: per text int64 (k, 2) [start, end) character offsets of its
        dictionary words (UserDictionary.matches).
    bonus: logit units (nats) added per decision.
    RETURNS new arrays (the inputs are not changed).
    RAISES KeyError: for an unknown scheme.
    """
    add = BONUS_BY_SCHEME[scheme]
    scores = [score.copy() for score in scores]
    position = 0
    for view, text_spans, text_matches in zip(views, spans, matches):
        units = _unit_spans(view, text_matches)
        for start, end in text_spans:
            inside = units[(units[:, 0] >= start) & (units[:, 1] <= end)] - start
            for first, word_end in inside.tolist():
                add(scores[position], first, word_end, bonus)
            position += 1
    return scores
