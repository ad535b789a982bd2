"""Domain words mined from raw text: accessor variety, PMI, and the model's own confident words.

A string of Han characters is a candidate word of the domain when

- it is frequent (``min_count`` occurrences),
- many different characters precede and follow it: its accessor variety
  AV(w) = min(distinct left neighbours, distinct right neighbours), where
  each text edge or punctuation mark counts as a distinct neighbour
  (Feng et al. 2004, "Accessor variety criteria for Chinese word
  extraction", Computational Linguistics 30(1)); a fragment of a longer word
  has few neighbours on the side where the word goes on;
- its characters stick together: the smallest pointwise mutual information
  over the ways to cut it in two, min over k of
  log(P(w) / (P(w[:k]) P(w[k:]))), with n-gram probabilities per character
  of text (the cohesion of Sproat & Shih 1990, used with AV by Feng et al.);
- optionally (``min_branching_entropy``), the entropy of the characters
  on either side is high (branching entropy, Jin & Tanaka-Ishii 2006): it
  weighs neighbours by their counts, where accessor variety counts a rare
  neighbour as much as a frequent one;
- it does not end with a function character (带着, 站在), nor start with one
  followed by a word the model outputs confidently (的时候 = 的 + 时候). A
  function character is one of the ``function_rank`` most frequent
  characters of the model's training text (its symbol vocabulary is ranked
  by count) that the model, on this text, makes a word alone most of the
  time (的, 了, 在, 着, but also 小 of the names 小舞 and 小环, which the model
  cuts 小|舞: what follows 小, 舞, is no word of the model's, so the name
  stays a candidate, if its branching entropy, below, is at least
  ``function_prefix_entropy``);
- it is not a fragment of a longer candidate that holds nearly all of its
  occurrences ("小凡" stays beside "张小凡" when it occurs alone too);
- it is not two words: a candidate found by the statistics alone that cuts
  into two parts of two or more characters, each a candidate or a word the
  model outputs confidently, is dropped ("野狗道人" = "野狗" + "道人": the
  model's standard, CTB's, cuts a title from a name);
- if found by the statistics alone, the model is sure of a boundary
  inside it (an inner gap probability of at least ``confidence``) in fewer
  than ``confident_cut_share`` of its occurrences: such a candidate that
  the model cuts with confidence is mostly a phrase (点了点头, 吃了一惊) or
  a compound it cuts by its standard (普泓|上人), while the names it gets
  wrong it doubts (张小凡: inner gaps at 0.3 to 0.6).

The model's own words join them: multi-character words that the pipeline
outputs confidently (every inner gap probability below 1 - ``confidence``,
both edges above ``confidence``; doc._.gap_probs) at least ``min_count``
times and in most of the string's occurrences. In prefer mode they make the
model more consistent on the domain's frequent words.

The result is ranked by what the model does not know: by the occurrences
of each word that the model does not make a confident word of
(model_agreement.py), so the names it cuts (张小凡, 鬼厉) come first and the
words it already segments right (没有, 我们) last; then by frequency. It is
written in the user-dictionary format (``word freq`` a line), for
``add_words`` in "prefer" mode: the words join the model's last lexicon
channel (its jieba lexicon for the shipped pipelines), and the model still
decides.
"""
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence

import numpy
from tqdm import tqdm

from .model_agreement import WordAgreement, word_agreement

# Runs of Han characters (CJK unified ideographs, extension A, compatibility
# ideographs, the supplementary ideographic plane): candidates lie inside them.
HAN_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")


@dataclass
class MiningSettings:
    """Thresholds of mine_lexicon (defaults chosen on ZX dev, docs/experiments/adaptation.md).

    min_length, max_length: candidate lengths in characters.
    min_count: occurrences in the raw text, for both kinds of candidate.
    min_accessor_variety: AV threshold (Feng et al. 2004 try 2 to 6 and
        more; 5 was best on ZX dev).
    min_pmi: cohesion threshold, natural log.
    function_rank, function_rate: a character among the model's
        ``function_rank`` most frequent training characters that the model
        makes a word alone in at least ``function_rate`` of its
        ``function_min_count`` or more occurrences is a function character.
    fragment_share: a candidate whose occurrences lie inside one longer
        candidate at least this often is dropped as its fragment.
    confidence: the gap probability a model word's edges must pass (and
        its inner gaps stay below 1 - it).
    model_rate: the share of a string's occurrences the model must make a
        confident word of, for the model's words.
    split_compounds: drop statistical candidates made of two words.
    min_branching_entropy: least branching entropy (natural log) of a
        statistical candidate (NgramStatistics.branching_entropy); 0: no
        test (2.0 raised the precision of the mined words against gold from
        0.86-0.93 to 0.93-0.97 on three domains' raw text, and lost 0.3 F1 on
        one domain's dev: docs/experiments/adaptation.md).
    function_affixes: drop a candidate that starts with a function
        character only where the rest is a word the model outputs
        confidently (的 + 时候), not a name the model cuts (小 + 舞); False:
        drop every candidate edged by one.
    function_prefix_entropy: the least branching entropy of a candidate
        that starts with a function character (such candidates are more
        often phrases, 了一下, than names).
    confident_cut_share: drop a statistical candidate whose occurrences
        have an inner gap probability of at least ``confidence`` this often
        or more (model_agreement.py); None: no test. 0.5 gained 0.0 to 0.3
        F1 on four domains' dev sets (docs/experiments/adaptation.md).
    """

    min_length: int = 2
    max_length: int = 4
    min_count: int = 3
    min_accessor_variety: int = 5
    min_pmi: float = 3.0
    function_rank: int = 300
    function_rate: float = 0.6
    function_min_count: int = 20
    fragment_share: float = 0.8
    confidence: float = 0.9
    model_rate: float = 0.5
    split_compounds: bool = True
    min_branching_entropy: float = 0.0
    function_affixes: bool = True
    function_prefix_entropy: float = 2.5
    confident_cut_share: Optional[float] = 0.5

    def check(self) -> None:
        """RAISES ValueError: for thresholds out of range."""
        if not 1 <= self.min_length <= self.max_length:
            raise ValueError(
                "Candidate lengths need 1 <= min_length <= max_length, "
                f"got {self.min_length} and {self.max_length}"
            )
        if self.min_count < 1:
            raise ValueError(f"min_count must be at least 1, got {self.min_count}")
        for name in ("function_rate", "fragment_share", "confidence", "model_rate", "confident_cut_share"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a share between 0 and 1, got {value}")


@dataclass
class MinedWord:
    """One mined word. count: its occurrences in the raw text; accessor_variety,
    pmi: its statistics (None when it came from the model alone); model_count:
    how often the model made a confident word of it; sources: "statistics",
    "model" or both; branching_entropy: its statistic (None when it came from
    the model alone); unsure: its occurrences the model did not make a
    confident word of (model_agreement.py; None without the model)."""

    word: str
    count: int
    accessor_variety: Optional[int] = None
    pmi: Optional[float] = None
    model_count: int = 0
    sources: List[str] = field(default_factory=list)
    branching_entropy: Optional[float] = None
    unsure: Optional[int] = None


class NgramStatistics:
    """Counts, accessor varieties and cohesion of the Han n-grams of a text collection.

    texts: the raw texts; max_length: the longest n-gram counted as a candidate.
    Memory: a Counter entry per distinct n-gram of length 1 to max_length + 1
    (about 4 million for 1,000,000 characters at max_length 4).
    """

    def __init__(self, texts: Iterable[str], max_length: int, progress: bool = False):
        self.max_length = max_length
        self.counts: Counter = Counter()
        left_edges: Counter = Counter()
        right_edges: Counter = Counter()
        extended: Counter = Counter()  # (n + 1)-grams, n = 1..max_length: their distinct neighbours
        self.n_characters = 0
        for text in tqdm(texts, desc="n-grams", unit=" texts", disable=not progress, leave=False):
            for run in HAN_RUN.findall(text):
                length = len(run)
                self.n_characters += length
                for n in range(1, min(max_length, length) + 1):
                    grams = [run[i : i + n] for i in range(length - n + 1)]
                    self.counts.update(grams)
                    left_edges[grams[0]] += 1
                    right_edges[grams[-1]] += 1
                if length > 1:
                    extended.update(run[i : i + n + 1] for n in range(1, max_length + 1) for i in range(length - n))
        left_variety: Counter = Counter()
        right_variety: Counter = Counter()
        # Per n-gram, the sum of c log c over its neighbours' counts c (branching entropy).
        left_mass: Counter = Counter()
        right_mass: Counter = Counter()
        for gram, count in extended.items():
            left_variety[gram[1:]] += 1
            right_variety[gram[:-1]] += 1
            if count > 1:
                mass = count * math.log(count)
                left_mass[gram[1:]] += mass
                right_mass[gram[:-1]] += mass
        self._left = left_variety
        self._right = right_variety
        self._left_mass = left_mass
        self._right_mass = right_mass
        self._left_edges = left_edges
        self._right_edges = right_edges

    def accessor_variety(self, word: str) -> int:
        """min(left, right) distinct neighbours; each run edge counts as one more (Feng et al. 2004)."""
        left = self._left[word] + self._left_edges[word]
        right = self._right[word] + self._right_edges[word]
        return min(left, right)

    def branching_entropy(self, word: str) -> float:
        """min(left, right) entropy of the neighbouring character, natural log
        (Jin & Tanaka-Ishii 2006, "Unsupervised segmentation of Chinese text by
        use of branching entropy", COLING/ACL); each run edge counts as a
        neighbour of its own, as in accessor_variety. 0.0 for an absent word.

        A word is followed by many characters, each a few times (high
        entropy); a fragment of a longer word mostly by the character that
        completes it (low entropy on that side), however many rare other
        neighbours it has, which accessor variety counts as much as frequent ones.
        """
        total = self.counts[word]
        if not total:
            return 0.0
        # H = -sum (c / N) log(c / N) = log N - sum(c log c) / N; an edge has c = 1.
        return math.log(total) - max(self._left_mass[word], self._right_mass[word]) / total

    def pmi(self, word: str) -> float:
        """The smallest log(P(w) / (P(a) P(b))) over the cuts w = a + b (natural log); inf for one character."""
        if len(word) < 2:
            return math.inf
        total = max(self.n_characters, 1)
        joint = self.counts[word] / total
        return min(
            math.log(joint / ((self.counts[word[:k]] / total) * (self.counts[word[k:]] / total)))
            for k in range(1, len(word))
        )


@dataclass
class ModelWordStatistics:
    """What the model made of the raw text.

    word_counts: confident multi-character words (edges above confidence,
        inner gaps below 1 - confidence) and their counts.
    alone_share: per character, the share of its occurrences that the
        model made a one-character word.
    texts, words, gap_probs: the labelled raw text, for word_agreement.
    """

    word_counts: Counter
    alone_share: Dict[str, float]
    texts: Sequence[str] = ()
    words: Sequence[numpy.ndarray] = ()
    gap_probs: Sequence[numpy.ndarray] = ()


def model_word_statistics(
    texts: Sequence[str],
    words: Sequence[numpy.ndarray],
    gap_probs: Sequence[numpy.ndarray],
    confidence: float,
    max_length: int,
) -> ModelWordStatistics:
    """Count the model's confident words and one-character words.

    words: per text int64 (n_words, 2) word offsets; gap_probs: per text
    float32 (len(text) - 1,) (Segmenter.segment_with_probs).
    """
    word_counts: Counter = Counter()
    alone: Counter = Counter()
    characters: Counter = Counter()
    for text, text_words, probs in zip(texts, words, gap_probs):
        characters.update(text)
        # A boundary before the text and after it: probability 1.
        edges = numpy.concatenate([[1.0], probs, [1.0]]).astype(numpy.float32)
        lengths = text_words[:, 1] - text_words[:, 0]
        for start in text_words[lengths == 1, 0].tolist():
            alone[text[start]] += 1
        for start, end in text_words[(lengths >= 2) & (lengths <= max_length)].tolist():
            if edges[start] < confidence or edges[end] < confidence:
                continue
            if end - start > 1 and edges[start + 1 : end].max() > 1.0 - confidence:
                continue
            word_counts[text[start:end]] += 1
    share = {char: alone[char] / count for char, count in characters.items() if count}
    return ModelWordStatistics(word_counts, share, texts, words, gap_probs)


def mine_lexicon(
    texts: Sequence[str],
    model_words: Optional[ModelWordStatistics] = None,
    settings: Optional[MiningSettings] = None,
    model_symbols: Sequence[str] = (),
    progress: bool = False,
) -> List[MinedWord]:
    """The domain's words, ranked by what the model does not know (see the module docstring).

    texts: the raw texts. model_words: the model's statistics on them
        (model_word_statistics); None: statistics only, no function
        characters, no model words and no model agreement.
    model_symbols: the model's symbols, most frequent in its training text
        first (Segmenter.symbols), for the function characters.
    RETURNS: the mined words, by their occurrences the model does not make
        a confident word of (``unsure``; by count alone without the model's
        labelled text), then by count, then by the word.
    RAISES ValueError: for settings out of range.
    """
    settings = settings or MiningSettings()
    settings.check()
    stats = NgramStatistics(texts, settings.max_length, progress)
    function_chars = set()
    if model_words is not None:
        common = set(model_symbols[: settings.function_rank])
        function_chars = {
            char
            for char, share in model_words.alone_share.items()
            if char in common and share >= settings.function_rate and stats.counts[char] >= settings.function_min_count
        }
    confident_words = set()  # the model's confident words, at least min_count times
    if model_words is not None:
        confident_words = {word for word, count in model_words.word_counts.items() if count >= settings.min_count}
    mined: Dict[str, MinedWord] = {}
    for gram, count in stats.counts.items():
        if count < settings.min_count or not settings.min_length <= len(gram) <= settings.max_length or len(gram) < 2:
            continue
        if (gram[0] in function_chars or gram[-1] in function_chars) and _is_affixed(
            gram, function_chars, confident_words, settings.function_affixes
        ):
            continue
        variety = stats.accessor_variety(gram)
        if variety < settings.min_accessor_variety:
            continue
        cohesion = stats.pmi(gram)
        if cohesion < settings.min_pmi:
            continue
        entropy = stats.branching_entropy(gram)
        if entropy < settings.min_branching_entropy:
            continue
        if gram[0] in function_chars and entropy < settings.function_prefix_entropy:
            continue
        mined[gram] = MinedWord(gram, count, variety, cohesion, sources=["statistics"], branching_entropy=entropy)
    if model_words is not None:
        for word, model_count in model_words.word_counts.items():
            count = stats.counts.get(word, 0)
            if model_count < settings.min_count or not count or model_count < settings.model_rate * count:
                continue
            if word in mined:
                mined[word].model_count = model_count
                mined[word].sources.append("model")
            else:
                mined[word] = MinedWord(word, count, model_count=model_count, sources=["model"])
    _drop_fragments(mined, settings.fragment_share)
    if settings.split_compounds:
        known = set(mined) | confident_words
        compounds = [
            word
            for word, entry in mined.items()
            if entry.sources == ["statistics"]
            and any(word[:k] in known and word[k:] in known for k in range(2, len(word) - 1))
        ]
        for word in compounds:
            del mined[word]
    if model_words is None or not len(model_words.texts):
        return sorted(mined.values(), key=lambda entry: (-entry.count, entry.word))
    agreement = word_agreement(model_words.texts, model_words.words, model_words.gap_probs, mined, settings.confidence)
    if settings.confident_cut_share is not None:
        _drop_confident_cuts(mined, agreement, settings.confident_cut_share)
    return _by_unsure_occurrences(mined, agreement)


def _drop_confident_cuts(mined: Dict[str, MinedWord], agreement: Dict[str, WordAgreement], share: float) -> None:
    """Drop each candidate of the statistics alone with a confident inner boundary in ``share`` of its occurrences."""
    for word in [word for word, entry in mined.items() if entry.sources == ["statistics"]]:
        seen = agreement[word]
        if seen.confident_cut >= share * seen.occurrences > 0:
            del mined[word]


def _by_unsure_occurrences(mined: Dict[str, MinedWord], agreement: Dict[str, WordAgreement]) -> List[MinedWord]:
    """The mined words with their ``unsure`` counts set, by them (descending), then by count and the word."""
    for word, entry in mined.items():
        entry.unsure = agreement[word].occurrences - agreement[word].confident
    return sorted(mined.values(), key=lambda entry: (-entry.unsure, -entry.count, entry.word))


def _is_affixed(gram: str, function_chars: set, known: set, only_known_rests: bool) -> bool:
    """Whether ``gram``, edged by a function character, is a word with an affix. A function character
    at its end is a particle (带着, 站在): always. One at its start (and no other at its end) is
    a prefix of a name (小舞, 小环) when what follows the function characters is no ``known``
    word: with ``only_known_rests``, only where it is one (的时候: 时候) or nothing; without it, always."""
    if not only_known_rests or gram[-1] in function_chars:
        return True
    rest = gram.lstrip("".join(function_chars))
    return not rest or rest in known


def _drop_fragments(mined: Dict[str, MinedWord], share: float) -> None:
    """Drop each candidate that lies inside a longer candidate in at least ``share`` of its occurrences."""
    fragments = set()
    for word, entry in mined.items():
        for n in range(1, len(word)):
            for k in range(0, len(word) - n + 1):
                part = word[k : k + n]
                if part in mined and entry.count >= share * mined[part].count:
                    fragments.add(part)
    for part in fragments:
        del mined[part]


def write_lexicon(words: Sequence[MinedWord], path: Path) -> None:
    """Write ``word count`` a line (the user-dictionary format, lexicon/sources.py), in order."""
    with Path(path).open("w", encoding="utf-8", newline="\n") as stream:
        for entry in words:
            stream.write(f"{entry.word} {entry.count}\n")
