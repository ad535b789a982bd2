"""The lexicon's normalised words (keys) in a static trie, with one row of
per-key values each, saved as bytes that load without rebuilding anything.

A pipeline's lexicon matcher (match_features.py) finds every key in a text
and reads the values of the keys it found (fold masks per channel, POS tag,
training count, hash, length) from numpy arrays indexed by the key's id.
Building that from the words (normalising hundreds of thousands of them,
building an automaton) at every load cost seconds and memory; here the keys
live in a ``marisa_trie.Trie`` (a well-kept, compact static trie that loads
from bytes as they are) and the values in arrays
whose bytes are read in place (``numpy.frombuffer``). Nothing is unpickled.

The trie gives each key its own id (0 .. n - 1, not the order they were
given in), so the arrays are kept in the trie's order. Matching a text
(``matches``) is vectorised with numpy over the text, one pass per key
length, against the keys sorted by length and hash (derived from the trie
when the index loads).
"""
from itertools import islice
from typing import Dict, Mapping, Sequence, Tuple

import numpy
import srsly

from ..freed_memory import release_freed_memory
from ..saved_messages import array_message, message_array, saved_message

INDEX_FORMAT = "spacy-cws.lexicon-index.v1"
# The key filter's size: 2**22 bits (512 KB), about 9% set by 390,000 keys.
FILTER_BITS = 22
LENGTH_SALT = numpy.uint64(0xD6E8FEB86659FD93)
# Keys joined into one string at a time while the index is arranged.
KEYS_AT_A_TIME = 16384
# Multipliers of the keys' polynomial hash (odd, 64 bits), tried in turn.
HASH_BASES = tuple(numpy.uint64(base) for base in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9))


def code_points_of(text: str) -> numpy.ndarray:
    """uint32 (len(text),): the code point of each character."""
    return numpy.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=numpy.uint32)


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


def _filter_slots(hashes: numpy.ndarray, lengths) -> numpy.ndarray:
    """The bitmap slot (int64, < 2**FILTER_BITS) of each (hash, length): the
    top bits of the hash mixed with the length (a polynomial hash's low bits
    depend only on the code points' low bits)."""
    with numpy.errstate(over="ignore"):
        mixed = hashes + numpy.asarray(lengths, dtype=numpy.uint64) * LENGTH_SALT
    return (mixed >> numpy.uint64(64 - FILTER_BITS)).astype(numpy.int64)


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
        self._index_windows()

    def __len__(self) -> int:
        return len(self._trie)

    def __contains__(self, key: str) -> bool:
        """Whether ``key`` is one of the keys (a trie lookup)."""
        return key in self._trie

    def _index_windows(self) -> None:
        """Arrange the keys for ``matches``: sorted by (length, polynomial
        hash of their code points), with their trie ids and code points.
        Derived from the trie when the index is built or loaded, not saved."""
        # Key by key, so that no list of all the keys' strings is ever held (RSS).
        n_keys = len(self._trie)
        ids = numpy.fromiter((key_id for _, key_id in self._trie.iteritems()), dtype=numpy.int64, count=n_keys)
        lengths = numpy.fromiter((len(key) for key in self._trie.iterkeys()), dtype=numpy.int64, count=n_keys)
        keys = self._trie.iterkeys()
        codes = numpy.concatenate(
            [code_points_of("".join(islice(keys, KEYS_AT_A_TIME))) for _ in range(0, n_keys, KEYS_AT_A_TIME)]
            or [numpy.zeros(0, dtype=numpy.uint32)]
        )
        codes = codes.astype(numpy.uint16) if len(codes) and codes.max() < 1 << 16 else codes
        starts = numpy.concatenate([[0], numpy.cumsum(lengths)[:-1]]).astype(numpy.int64)
        # Longest first: the keys longer than k are a prefix, so each step
        # works in place on views (temporaries would stay in the heap: RSS).
        by_length = numpy.argsort(-lengths, kind="stable")
        longer = numpy.searchsorted(-lengths[by_length], -numpy.arange(self.max_key_length), side="left")
        sorted_starts = starts[by_length]
        positions = numpy.empty(len(ids), dtype=numpy.int64)
        code = numpy.empty(len(ids), dtype=numpy.uint64)
        for base in HASH_BASES:  # another multiplier where two keys of one length share a hash
            hashes = numpy.zeros(len(ids), dtype=numpy.uint64)
            for offset, count in enumerate(longer.tolist()):
                numpy.add(sorted_starts[:count], offset, out=positions[:count])
                code[:count] = codes[positions[:count]]
                numpy.multiply(hashes[:count], base, out=hashes[:count])
                numpy.add(hashes[:count], code[:count], out=hashes[:count])
            order = numpy.lexsort((hashes, lengths[by_length]))
            repeated = (lengths[by_length][order][1:] == lengths[by_length][order][:-1]) & (
                hashes[order][1:] == hashes[order][:-1]
            )
            if not repeated.any():
                break
        else:
            raise ValueError(
                "Lexicon keys of one length share a hash under every multiplier: report this, with the lexicon"
            )
        del positions, code
        self._base = base
        self._hashes = hashes[order]
        order = by_length[order]  # into the trie's order
        del hashes, by_length, sorted_starts
        self._ids, self._starts = ids[order].astype(numpy.int32), starts[order].astype(numpy.int32)
        self._codes = codes
        sorted_lengths = lengths[order]
        present = numpy.unique(sorted_lengths)
        firsts = numpy.searchsorted(sorted_lengths, present, side="left")
        ends = numpy.searchsorted(sorted_lengths, present, side="right")
        self._bounds = {int(length): (int(a), int(b)) for length, a, b in zip(present, firsts, ends)}
        # A bitmap of the keys' (length, hash) slots: most windows are no key,
        # and one bit read rules them out before the sorted search.
        self._filter = numpy.zeros(1 << (FILTER_BITS - 3), dtype=numpy.uint8)
        slots = _filter_slots(self._hashes, sorted_lengths)
        numpy.bitwise_or.at(self._filter, slots >> 3, (1 << (slots & 7)).astype(numpy.uint8))
        release_freed_memory()  # the keys' strings, one at a time (freed_memory.py)

    def matches(self, text: str) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """Every occurrence of a key in ``text``: int64 (m,) offsets of their
        last characters and int64 (m,) key ids, by key length, then by
        offset. One numpy pass per key length over the whole text: the hash
        of every window of that length (``h[t] = h[t] * B + c[t + L - 1]``,
        modulo 2**64) is looked up among the keys' (``searchsorted``), and a
        window whose hash is found is compared with the key character by
        character, so a shared hash never makes a false match. (A walk of
        the trie from each character took a Python call per character: the
        largest cost of featurization.)"""
        codes = code_points_of(text)
        wide = codes.astype(numpy.uint64)  # once, not once per key length
        ends, ids = [numpy.zeros(0, dtype=numpy.int64)], [numpy.zeros(0, dtype=numpy.int64)]
        hashes = numpy.zeros(len(codes), dtype=numpy.uint64)
        with numpy.errstate(over="ignore"):
            for length in range(1, min(self.max_key_length, len(codes)) + 1):
                hashes = hashes[: len(codes) - length + 1] * self._base + wide[length - 1 :]
                if length not in self._bounds:
                    continue
                first, end = self._bounds[length]
                slots = _filter_slots(hashes, length)
                starts = numpy.flatnonzero((self._filter[slots >> 3] >> (slots & 7).astype(numpy.uint8)) & 1)
                found = first + numpy.searchsorted(self._hashes[first:end], hashes[starts])
                kept = found < end
                starts, found = starts[kept], found[kept]
                kept = self._hashes[found] == hashes[starts]
                starts, rows = starts[kept], found[kept]
                steps = numpy.arange(length)
                key_starts = self._starts[rows].astype(numpy.int64)
                same = (codes[starts[:, None] + steps] == self._codes[key_starts[:, None] + steps]).all(axis=1)
                ends.append(starts[same] + length - 1)
                ids.append(self._ids[rows[same]])
        return numpy.concatenate(ends), numpy.concatenate(ids)

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
        index._index_windows()
        if any(len(array) != len(index._trie) for array in index.values.values()):
            raise ValueError("the lexicon index is corrupt: its arrays do not have one row per key")
        return index
