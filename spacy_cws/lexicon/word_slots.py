"""The word slots of each unit: which lexicon words hold it, for the word-POS
attention of Gan & Zhang 2020, "Investigating Self-Attention Network for
Chinese Word Segmentation" (section 4.2; nets/pytorch_word_pos_attention.py).

Each unit t gets K slots, filled with the matched words that contain t,
longest first (then leftmost), so a unit inside many words keeps the
longest. A slot is one int64: in its low SLOT_TAG_BITS bits the id
``1 + tag * 4 + position`` of the word's coarse POS tag (pos_tags.py) and of
t's position in the word (B, M, E or S: the paper's t_b), 0 for an empty
slot; above them the word's hash + 1 where the model represents the word by
its word embedding, 0 where by its POS.

Training replaces a word by its POS with probability min(1, sqrt(t / f(w))),
f(w) its count in the training data (the paper's eq. 14), drawn per match from
numpy's global generator (which spaCy's training seeds). A word replaced
always (f(w) <= t) never trains its word embedding, so at inference it is its
POS too; every other training word is its word embedding.
"""

import numpy

POSITIONS = ("B", "M", "E", "S")
_B, _M, _E, _S = range(len(POSITIONS))
SLOT_TAG_BITS = 8
SLOT_TAG_MASK = (1 << SLOT_TAG_BITS) - 1


def replacement_probability(frequencies: numpy.ndarray, threshold: float) -> numpy.ndarray:
    """Gan & Zhang 2020, eq. 14: P(replace w by its POS) = min(1, sqrt(t / f(w))).

    frequencies: int (n,), training counts (0 for a word never seen: always
        replaced). threshold: t >= 0; 0 never replaces.
    RETURNS float (n,) in [0, 1].
    """
    if threshold <= 0:
        return numpy.zeros(len(frequencies))
    with numpy.errstate(divide="ignore"):
        return numpy.minimum(1.0, numpy.sqrt(threshold / frequencies.astype(numpy.float64)))


def fill_word_slots(
    n_units: int,
    starts: numpy.ndarray,
    lengths: numpy.ndarray,
    tags: numpy.ndarray,
    word_hashes: numpy.ndarray,
    n_slots: int,
) -> numpy.ndarray:
    """The slots of every unit from a list of word matches.

    n_units: units of the (joined) text. starts, lengths: int (m,), each
        match's first unit and length in units. tags: int (m,), its coarse POS
        tag. word_hashes: int (m,), its hash + 1 (> 0) where represented by its
        word embedding, else 0.
    RETURNS int64 (n_units, n_slots), see the module docstring.
    """
    slots = numpy.zeros((n_units, n_slots), dtype=numpy.int64)
    if not len(starts) or not n_slots:
        return slots
    # One entry per (match, unit it covers).
    match = numpy.repeat(numpy.arange(len(starts)), lengths)
    inside = numpy.arange(len(match)) - numpy.repeat(numpy.cumsum(lengths) - lengths, lengths)
    units = starts[match] + inside
    length = lengths[match]
    position = numpy.where(inside == 0, _B, numpy.where(inside == length - 1, _E, _M))
    position[length == 1] = _S
    ids = (1 + tags[match] * len(POSITIONS) + position) | (word_hashes[match] << SLOT_TAG_BITS)
    order = numpy.lexsort((starts[match], -length, units))  # by unit, longest first, then leftmost
    units, ids = units[order], ids[order]
    first = numpy.searchsorted(units, units, side="left")
    rank = numpy.arange(len(units)) - first
    kept = rank < n_slots
    slots[units[kept], rank[kept]] = ids[kept]
    return slots


def drop_replaced(word_hashes: numpy.ndarray, probabilities: numpy.ndarray, training: bool) -> numpy.ndarray:
    """word_hashes with entries set to 0 (POS instead of word, Gan & Zhang
    2020, eq. 15): in training each with its probability, at inference those replaced
    always (probability 1), whose word embeddings never trained."""
    replaced = numpy.random.random(len(word_hashes)) < probabilities if training else probabilities >= 1.0
    return numpy.where(replaced, 0, word_hashes)
