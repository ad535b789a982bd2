"""The lexicon's key index finds exactly the keys a brute-force scan finds,
before and after saving, and whatever the hash multiplier."""
import random

import numpy
import pytest

from spacy_cws.lexicon import key_index
from spacy_cws.lexicon.key_index import KeyIndex

ALPHABET = "天气很好北京大学生0X，\U00020000"  # a character outside the BMP too


def _keys_and_text(seed: int):
    rng = random.Random(seed)
    keys = sorted({"".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6))) for _ in range(300)})
    text = "".join(rng.choice(ALPHABET + "\n") for _ in range(2000))
    return keys, text


def _brute_force(index: KeyIndex, keys, text):
    found = set()
    for key in keys:
        key_id = index._trie[key]
        start = text.find(key)
        while start >= 0:
            found.add((start + len(key) - 1, key_id))
            start = text.find(key, start + 1)
    return found


@pytest.mark.parametrize("seed", range(5))
def test_matches_are_every_occurrence_of_every_key(seed):
    keys, text = _keys_and_text(seed)
    index = KeyIndex(keys, {"row": numpy.arange(len(keys))})
    ends, ids = index.matches(text)
    assert set(zip(ends.tolist(), ids.tolist())) == _brute_force(index, keys, text) and len(ends) == len(
        set(zip(ends, ids))
    )
    loaded = KeyIndex.from_bytes(index.to_bytes())
    assert [a.tolist() for a in loaded.matches(text)] == [ends.tolist(), ids.tolist()]
    assert loaded.values["row"][index._trie[keys[7]]] == 7  # each key's row follows it


def test_keys_that_share_a_hash_take_the_next_multiplier(monkeypatch):
    keys, text = _keys_and_text(9)
    # Multiplier 0: every key's hash is its last code point, shared by many keys.
    monkeypatch.setattr(key_index, "HASH_BASES", (numpy.uint64(0),) + key_index.HASH_BASES)
    index = KeyIndex(keys, {})
    assert index._base == key_index.HASH_BASES[1]
    assert set(zip(*[a.tolist() for a in index.matches(text)])) == _brute_force(index, keys, text)
    monkeypatch.setattr(key_index, "HASH_BASES", (numpy.uint64(0),))
    with pytest.raises(ValueError, match="share a hash"):
        KeyIndex(keys, {})
