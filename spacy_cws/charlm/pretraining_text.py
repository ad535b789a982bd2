"""The raw text of a character LM: the texts of training corpora (DocBins and
review CSVs, ngram_vectors/training_texts.py), de-duplicated, with a share of
texts held out for measuring the LM.

De-duplication: a text (its characters with surrounding whitespace stripped)
is kept the first time it occurs, in the order the corpora are given; later
copies, in the same corpus or another, are dropped (news and reviews repeat
lines). Held out: a text is held out when the MD5 of its UTF-8 bytes, read as
a number, falls in the lowest ``heldout_share`` of the range, so the split
does not depend on the order, the other corpora or a seed, and a text is
held out in every corpus or in none. Only training splits should be given,
and the dev and test splits as ``exclude``: a text that occurs in one of
them is dropped wherever it occurs (444 of the ChnSentiCorp_htl_all
reviews are ChnSentiCorp dev or test texts), so no dev or test text reaches
the LM.
"""
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence

from ..ngram_vectors.training_texts import training_texts


@dataclass
class PretrainingText:
    """train, heldout: the texts; sources: per corpus (its path) the texts read,
    the duplicates dropped, the texts dropped as dev or test texts
    (excluded), the texts kept for training and held out, and the characters
    kept (both)."""

    train: List[str] = field(default_factory=list)
    heldout: List[str] = field(default_factory=list)
    sources: Dict[str, Dict[str, int]] = field(default_factory=dict)

    @property
    def n_characters(self) -> int:
        return sum(len(text) for text in self.train) + sum(len(text) for text in self.heldout)


def is_heldout(text: str, heldout_share: float) -> bool:
    """Whether ``text`` is held out: the MD5 of its UTF-8 bytes below ``heldout_share`` of its range."""
    digest = int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:8], "big")
    return digest < heldout_share * 2**64


def collect_pretraining_text(
    corpora: Sequence[Path], heldout_share: float, exclude: Sequence[Path] = ()
) -> PretrainingText:
    """The de-duplicated texts of ``corpora`` (DocBin files or review CSVs),
    stripped, without the texts of the ``exclude`` files, split into
    training and held-out texts (module docstring).
    RAISES FileNotFoundError: for a missing file; ValueError: for a file of
        another kind, or a share outside [0, 1)."""
    if not 0 <= heldout_share < 1:
        raise ValueError(f"The held-out share is in [0, 1), got {heldout_share}")
    result = PretrainingText()
    excluded = set(map(str.strip, training_texts(exclude)))
    seen = set()
    for path in corpora:
        counts = {"texts": 0, "duplicates": 0, "excluded": 0, "train": 0, "heldout": 0, "characters": 0}
        for text in map(str.strip, training_texts([path])):
            counts["texts"] += 1
            if text in excluded:
                counts["excluded"] += 1
                continue
            if text in seen:
                counts["duplicates"] += 1
                continue
            seen.add(text)
            split = "heldout" if is_heldout(text, heldout_share) else "train"
            getattr(result, split).append(text)
            counts[split] += 1
            counts["characters"] += len(text)
        result.sources[str(path)] = counts
    return result
