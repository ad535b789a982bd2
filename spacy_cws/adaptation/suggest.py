"""Which raw lines a person should segment: where the model is unsure of
gaps that recur in the domain, one line per such doubt.

At a gap whose boundary probability is p (doc._.gap_probs), the model's
decision is wrong with probability min(p, 1 - p) when it is calibrated (the
shipped pipelines are: docs/guides/domain-adaptation.md). Ranking lines by
that alone (uncertainty sampling, Lewis & Gale 1994, "A sequential algorithm
for training text classifiers", SIGIR) picks outliers: on SIGHAN 2008 SXU's
raw text, classical verses and inscriptions, which taught ``adapt --gold``
2.7 F1 less than a random sample of as many characters. So each doubtful gap
is weighted by how often the two characters across it occur in the whole raw
text (log 1 + count: what is fixed there is fixed wherever they recur, as in
information density, Settles & Craven 2008, "An analysis of active learning
strategies for sequence labeling tasks", EMNLP), and once a line with those
two characters is chosen, their later doubts count less (a factor
``repeat_discount`` per line already chosen). Lines are chosen greedily by
that value per character read (plus ``line_overhead`` characters for each
line), so the person's reading, not the number of lines, is the budget.
Measured on three domains' dev sets, this matches a random sample of as many
characters on average (docs/experiments/adaptation.md, "Which lines to
correct").
"""
import heapq
from collections import Counter
from dataclasses import dataclass
from typing import List, Sequence

import numpy

from ..segmenter.component import Segmenter


@dataclass
class SuggestionSettings:
    """How suggest_lines values a line (docs/experiments/adaptation.md).

    min_doubt: gaps the model is wronger than this rarely (min(p, 1 - p))
        add nothing.
    repeat_discount: the factor on a doubt at two characters that each
        chosen line holding them already covers.
    line_overhead: characters added to each line's length for the value per
        character (a line costs more than its characters to read).
    """

    min_doubt: float = 0.02
    repeat_discount: float = 0.3
    line_overhead: float = 10.0


@dataclass
class Suggestion:
    """A raw line to segment by hand: its 0-based index among the texts, its
    words as the model segments them, and its value when chosen (the expected
    wrong gaps it shows, weighted and discounted as suggest_lines does, per
    character read)."""

    index: int
    words: List[str]
    value: float


def gap_doubts(gap_probs: numpy.ndarray) -> numpy.ndarray:
    """float64 (n_gaps,): min(p, 1 - p), the chance that each gap's decision is wrong."""
    probs = numpy.asarray(gap_probs, dtype=numpy.float64)
    return numpy.minimum(probs, 1.0 - probs)


def suggest_lines(
    segmenter: Segmenter,
    texts: Sequence[str],
    n: int,
    progress: bool = False,
    settings: SuggestionSettings = SuggestionSettings(),
) -> List[Suggestion]:
    """The ``n`` texts (at most; fewer when fewer hold a doubt) of highest
    value (the module docstring), in the order chosen, each pre-segmented by
    ``segmenter``'s default criterion. A text that occurs twice is suggested
    once; a text of one character has no gap and is never suggested.

    RAISES ValueError: if n < 1.
    """
    from .adapt import label_texts

    if n < 1:
        raise ValueError(f"Suggest at least one line, got {n}")
    spans, probs = label_texts(segmenter, texts, progress, desc="score")
    counts = Counter(text[gap : gap + 2] for text in texts for gap in range(len(text) - 1))
    doubts = []  # per text: (pair, doubt × log(1 + count)) at its doubtful gaps
    for text, line_probs in zip(texts, probs):
        doubt = gap_doubts(line_probs)
        pairs = ((text[gap : gap + 2], doubt[gap]) for gap in numpy.flatnonzero(doubt > settings.min_doubt))
        doubts.append([(pair, d * numpy.log1p(counts[pair])) for pair, d in pairs])
    chosen_pairs: Counter = Counter()

    def value(index: int) -> float:
        weighted = sum(w * settings.repeat_discount ** chosen_pairs[pair] for pair, w in doubts[index])
        return weighted / (len(texts[index]) + settings.line_overhead)

    # Lazy greedy (values only fall as lines are chosen): a line popped with a
    # stale value goes back with its new one.
    seen_texts = set()
    candidates = []
    for index, text in enumerate(texts):
        if doubts[index] and text not in seen_texts:
            seen_texts.add(text)
            candidates.append((-value(index), index))
    heapq.heapify(candidates)
    suggestions: List[Suggestion] = []
    while candidates and len(suggestions) < n:
        _, index = heapq.heappop(candidates)
        current = value(index)
        if candidates and current < -candidates[0][0]:
            heapq.heappush(candidates, (-current, index))
            continue
        chosen_pairs.update(pair for pair, _ in doubts[index])
        words = [texts[index][start:end] for start, end in spans[index]]
        suggestions.append(Suggestion(index, words, current))
    return suggestions
