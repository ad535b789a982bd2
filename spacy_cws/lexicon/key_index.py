"""The lexicon's normalised words (keys) in a static trie, with one row of
per-key values each, saved as bytes that load without rebuilding anything.

A pipeline's lexicon matcher (match_features.py) finds every key in a text
and reads the values of the keys it found (fold masks per channel, POS tag,
training count, hash, length) from numpy arrays indexed by the key's id.
Building that from the words (normalising 350,000-700,000 of them, building
an automaton) took 1-2 s and 74 MB at every load; here the keys live in a
``marisa_trie.Trie`` (a well-kept static trie: jieba's 349,046 words take
about 1.2 MB, and it loads from bytes as they are) and the values in arrays
whose bytes are read in place (``numpy.frombuffer``). Nothing is unpickled.

The trie gives each key its own id (0 .. n - 1, not the order they were
given in), so the arrays are kept in the trie's order.
"""
from typing import Dict, Iterator, Mapping, Sequence

import numpy
import srsly

from ..saved_messages import array_message, message_array, saved_message

INDEX_FORMAT = "spacy-cws.lexicon-index.v1"


def _trie_class():
    try:
        import marisa_trie
    except ImportError as err:
        raise ImportError(
            "Matching a lexicon needs the marisa-trie package, a requirement of spacy-cws: pip install spacy-cws"
        ) from err
    return marisa_trie.Trie


def _smallest_integer_type(array: numpy.ndarray) -> numpy.dtype:
    """The smallest integer dtype that holds every value of an integer
    ``array`` (its own dtype for other arrays): a lexicon's lengths, tags and
    fold masks fit one or two bytes a key."""
    if array.dtype.kind not in "iu" or not array.size:
        return array.dtype
    return numpy.result_type(numpy.min_scalar_type(int(array.min())), numpy.min_scalar_type(int(array.max())))


class KeyIndex:
    """Keys (non-empty strings) and per-key arrays, in the trie's id order.

    keys: the distinct keys. values: name -> array whose first axis runs
        over ``keys`` in the given order (reordered here to the trie's ids;
        integers kept in the smallest dtype that holds them).
    RAISES ValueError: for an empty or repeated key, or an array whose first
        axis is not len(keys).
    """

    def __init__(self, keys: Sequence[str], values: Mapping[str, numpy.ndarray]):
        if any(not key for key in keys) or len(set(keys)) != len(keys):
            raise ValueError("The keys of a lexicon index must be distinct non-empty strings")
        bad = [name for name, array in values.items() if len(array) != len(keys)]
        if bad:
            raise ValueError(f"The arrays {bad} of a lexicon index do not have one row per key ({len(keys)})")
        self._trie = _trie_class()(keys)
        ids = numpy.fromiter((self._trie[key] for key in keys), dtype=numpy.int64, count=len(keys))
        self.values: Dict[str, numpy.ndarray] = {}
        for name, array in values.items():
            ordered = numpy.empty_like(array, dtype=_smallest_integer_type(array))
            ordered[ids] = array
            self.values[name] = ordered
        self.max_key_length = max((len(key) for key in keys), default=0)

    def __len__(self) -> int:
        return len(self._trie)

    def matches(self, text: str) -> Iterator[int]:
        """Each occurrence of a key in ``text`` as two ints, its last
        character's offset and the key's id: flat, by start offset, then by
        length. Linear in len(text) times the longest key (the trie walk of
        each start stops where no key continues)."""
        reach = self.max_key_length
        prefixes = self._trie.iter_prefixes_with_ids
        for start in range(len(text)):
            for prefix, key_id in prefixes(text[start : start + reach]):
                yield start + len(prefix) - 1
                yield key_id

    def to_bytes(self) -> bytes:
        """msgpack: the format, the trie's bytes and each array's dtype, shape and bytes."""
        return srsly.msgpack_dumps(
            {
                "format": INDEX_FORMAT,
                "trie": self._trie.tobytes(),
                "max_key_length": self.max_key_length,
                "values": {name: array_message(array) for name, array in self.values.items()},
            }
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> "KeyIndex":
        """The index saved by ``to_bytes``; its arrays are read-only views of ``data``.

        RAISES ValueError: for bytes that are not a saved index.
        """
        msg = saved_message(data, INDEX_FORMAT, "lexicon index", "lexicon index")
        index = cls.__new__(cls)
        index._trie = _trie_class()().frombytes(msg["trie"])
        index.max_key_length = int(msg["max_key_length"])
        index.values = {name: message_array(saved) for name, saved in msg["values"].items()}
        if any(len(array) != len(index._trie) for array in index.values.values()):
            raise ValueError("the lexicon index is corrupt: its arrays do not have one row per key")
        return index
