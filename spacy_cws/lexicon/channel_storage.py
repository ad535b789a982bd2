"""How a segmenter keeps its lexicon channels and bigram vocabulary in its cfg.

A channel held as a JSON object ({word: fold mask}) keeps Python objects for
every word for as long as the pipeline lives; the same words joined into one
string, with the fold masks in one list (or none when every word is in every
fold), are a few objects. The matcher and the bigram ids are built
from the packed form at load time (transient dicts and lists), so only the
packed form stays in memory. The JSON rows that pipelines saved before
spacy-cws 0.3.3 are still read.

Written here (no library fits): it is a storage layout of our own cfg.
"""
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .match_features import EVERY_FOLD

WORD_SEPARATOR = "\n"
PAIR_SEPARATOR = "\t"

# {"name": str, "words": str, "folds": Optional[List[int]], and optionally
# "tags": str and "counts": List[int]}
PackedChannel = Dict[str, object]


def _joined(items: Sequence[str], separator: str, forbidden: str, what: str) -> str:
    """The items joined by ``separator``, none of which may contain a character of ``forbidden``."""
    joined = separator.join(items)
    expected = {separator: max(len(items) - 1, 0)}
    if any(joined.count(character) != expected.get(character, 0) for character in forbidden):
        bad = next(item for item in items if any(character in item for character in forbidden))
        names = " or ".join(repr(character) for character in forbidden)
        raise ValueError(f"A {what} cannot contain {names}, got {bad!r}")
    return joined


def pack_channel(
    name: str,
    masks: Mapping[str, int],
    tags: Optional[Mapping[str, Optional[str]]] = None,
    counts: Optional[Mapping[str, int]] = None,
) -> PackedChannel:
    """A lexicon channel {word: fold mask} as the cfg stores it.

    tags, counts: the words' POS tags and training counts, kept for the
        word-POS attention (word_slots.py).
    RETURNS {"name", "words": the words joined by newlines, "folds": per word
        its fold mask, or None when every mask is EVERY_FOLD}; with tags
        "tags": per word its tag ("" for none) joined by newlines; with counts
        "counts": per word its count (0 for none).
    RAISES ValueError: for a word or tag containing a newline.
    """
    words = _joined(list(masks), WORD_SEPARATOR, WORD_SEPARATOR, "lexicon word")
    folds = list(masks.values())
    every_fold = all(mask == EVERY_FOLD for mask in folds)
    channel = {"name": name, "words": words, "folds": None if every_fold else folds}
    if tags is not None:
        channel["tags"] = _joined([tags.get(word) or "" for word in masks], WORD_SEPARATOR, WORD_SEPARATOR, "POS tag")
    if counts is not None:
        channel["counts"] = [counts.get(word, 0) for word in masks]
    return channel


def channel_tags(stored: Mapping[str, object]) -> Dict[str, str]:
    """The {word: POS tag} of a stored channel's tagged words ({} without tags)."""
    if not stored.get("tags") or isinstance(stored["words"], dict):
        return {}
    pairs = zip(stored["words"].split(WORD_SEPARATOR), stored["tags"].split(WORD_SEPARATOR))
    return {word: tag for word, tag in pairs if tag}


def channel_counts(stored: Mapping[str, object]) -> Dict[str, int]:
    """The {word: training count} of a stored channel ({} without counts)."""
    if not stored.get("counts") or isinstance(stored["words"], dict):
        return {}
    return dict(zip(stored["words"].split(WORD_SEPARATOR), stored["counts"]))


def unpack_channel(stored: Mapping[str, object]) -> Dict[str, int]:
    """The {word: fold mask} of a stored channel, packed (pack_channel) or in
    the JSON-object form of earlier versions ({"name", "words": {word: mask}}).

    RAISES ValueError: if the words and fold masks differ in number.
    """
    words = stored["words"]
    if isinstance(words, dict):
        return dict(words)
    word_list: List[str] = words.split(WORD_SEPARATOR) if words else []
    folds = stored.get("folds")
    if folds is None:
        return dict.fromkeys(word_list, EVERY_FOLD)
    if len(folds) != len(word_list):
        raise ValueError(
            f"Lexicon channel '{stored.get('name')}' has {len(word_list)} words but {len(folds)} fold masks: "
            "the pipeline's cfg is corrupt; save it again"
        )
    return dict(zip(word_list, folds))


def packed(stored: Mapping[str, object]) -> PackedChannel:
    """A stored channel in the packed form, whichever form it was saved in."""
    if isinstance(stored["words"], dict):
        return pack_channel(str(stored["name"]), stored["words"])
    kept = {"name": stored["name"], "words": stored["words"], "folds": stored.get("folds")}
    for optional in ("tags", "counts"):
        if stored.get(optional) is not None:
            kept[optional] = stored[optional]
    return kept


def pack_bigrams(pairs: Sequence[Sequence[str]]) -> str:
    """(left, right) symbol pairs as one string: "left<TAB>right" lines.

    RAISES ValueError: for a symbol containing a tab or a newline.
    """
    symbols = [symbol for pair in pairs for symbol in pair]
    _joined(symbols, "", WORD_SEPARATOR + PAIR_SEPARATOR, "bigram symbol")
    return WORD_SEPARATOR.join(f"{left}{PAIR_SEPARATOR}{right}" for left, right in pairs)


def unpack_bigrams(stored: Union[str, Sequence[Sequence[str]]]) -> List[Tuple[str, str]]:
    """The pairs of pack_bigrams' string, or of the list of [left, right] rows
    that earlier versions saved."""
    if isinstance(stored, str):
        return [tuple(line.split(PAIR_SEPARATOR)) for line in stored.split(WORD_SEPARATOR)] if stored else []
    return [(left, right) for left, right in stored]
