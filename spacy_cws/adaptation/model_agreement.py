"""What the model makes of each occurrence of a candidate word in the raw text.

A mined word is worth adding when the model does not already segment it
right: a word the model outputs confidently wherever it occurs (没有, 我们)
changes nothing in the dictionary, while a name it cuts (田不|易) or whose
edges it doubts is what adaptation is for. Per candidate string, over every
occurrence in the texts (each start, overlapping ones too):

- ``made``: the model's words have it as one word (a cut at both edges, none inside);
- ``confident``: made, and with every edge's gap probability at least
  ``confidence`` and every inner gap's at most 1 - ``confidence``
  (doc._.gap_probs; a text edge counts as a sure boundary);
- ``cut_inside``: the model's words cut inside it;
- ``confident_cut``: some inner gap's probability is at least ``confidence``
  (the model is sure of a boundary inside it: 点了|点头, 普泓|上人; not of
  the names it doubts, 张小凡 at 0.3 to 0.6).
"""
from dataclasses import dataclass
from typing import Dict, Iterable, Sequence

import numpy


@dataclass
class WordAgreement:
    """Per candidate: occurrences, and how many the model made a word of,
    confidently, cut inside, or was sure of a boundary inside (module docstring)."""

    occurrences: int = 0
    made: int = 0
    confident: int = 0
    cut_inside: int = 0
    confident_cut: int = 0

    @property
    def unsure_share(self) -> float:
        """The share of occurrences the model did not make a confident word of."""
        return 1.0 - self.confident / self.occurrences if self.occurrences else 0.0


def word_agreement(
    texts: Sequence[str],
    words: Sequence[numpy.ndarray],
    gap_probs: Sequence[numpy.ndarray],
    candidates: Iterable[str],
    confidence: float,
) -> Dict[str, WordAgreement]:
    """How the model segmented each occurrence of each candidate (module docstring).

    texts: the raw texts; words: per text int64 (n_words, 2) word offsets;
    gap_probs: per text float32 (len(text) - 1,) (Segmenter.segment_with_probs).
    candidates: strings of two or more characters.
    RETURNS: per candidate its WordAgreement (zero occurrences where absent).
    """
    result = {word: WordAgreement() for word in candidates}
    lengths = sorted({len(word) for word in result if len(word) >= 2})
    for text, text_words, probs in zip(texts, words, gap_probs):
        n = len(text)
        if n < 2:
            continue
        # cuts[i]: a word starts at character i; edges: the boundary probability before character i.
        cuts = numpy.zeros(n + 1, dtype=bool)
        cuts[text_words[:, 0]] = True
        cuts[text_words[:, 1]] = True
        cuts[[0, n]] = True
        edges = numpy.concatenate([[1.0], probs, [1.0]]).astype(numpy.float32)
        inner_cuts = numpy.concatenate([[0], numpy.cumsum(cuts[1:n])])  # cuts strictly after 0, up to i
        for length in lengths:
            for start in range(n - length + 1):
                entry = result.get(text[start : start + length])
                if entry is None:
                    continue
                end = start + length
                entry.occurrences += 1
                inside = inner_cuts[end - 1] - inner_cuts[start]
                inner = edges[start + 1 : end].max()
                if inner >= confidence:
                    entry.confident_cut += 1
                if inside:
                    entry.cut_inside += 1
                elif cuts[start] and cuts[end]:
                    entry.made += 1
                    if min(edges[start], edges[end]) >= confidence and inner <= 1.0 - confidence:
                        entry.confident += 1
    return result
