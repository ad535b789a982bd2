"""Batch features of sequences laid end to end equal each sequence's own."""
import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_cws.features.ngram_hashes import trigram_hashes
from spacy_cws.features.sequence_layout import SequenceLayout
from spacy_cws.features.symbol_ids import SymbolIds
from spacy_cws.features.symbol_specials import UNK

SYMBOLS = list("边境城市新华社北京")
IDS = SymbolIds(SYMBOLS[:6], [("<s>", "边"), ("边", "境"), ("城", "市"), ("市", "</s>"), ("新", "华")])
KNOWN = set(SYMBOLS[:6]) | {"<s>", "</s>"}
sequences = st.lists(st.text(alphabet="".join(SYMBOLS) + "镇", min_size=1, max_size=7), min_size=1, max_size=6)


def test_shifted_stops_at_sequence_edges():
    layout = SequenceLayout([3, 1, 2])
    values = numpy.arange(6) * 10
    assert layout.shifted(values, -1, -1).tolist() == [-1, 0, 10, -1, -1, 40]
    assert layout.shifted(values, 2, -1).tolist() == [20, -1, -1, -1, -1, -1]
    assert [part.tolist() for part in layout.split(values)] == [[0, 10, 20], [30], [40, 50]]


@settings(max_examples=200, deadline=None)
@given(sequences)
def test_batch_features_are_those_of_each_sequence_alone(parts):
    layout = SequenceLayout([len(part) for part in parts])
    criteria = list(range(len(parts)))
    batch_ids = layout.split(IDS.features("".join(parts), layout, criteria))
    batch_hashes = layout.split(trigram_hashes("".join(parts), layout))
    for part, criterion, ids, hashes in zip(parts, criteria, batch_ids, batch_hashes):
        alone = SequenceLayout([len(part)])
        assert ids.tolist() == IDS.features(part, alone, [criterion]).tolist()
        # Each unit's left and right bigram, looked up one pair at a time.
        padded = ["<s>", *part, "</s>"]
        pair_ids = [IDS.bigram_ids([pair])[0] if set(pair) <= KNOWN else UNK for pair in zip(padded, padded[1:])]
        assert ids[:, 1].tolist() == pair_ids[:-1] and ids[:, 2].tolist() == pair_ids[1:]
        assert hashes.tolist() == trigram_hashes(part, alone).tolist()


def test_trigrams_differ_at_sequence_edges():
    """The same unit has other left trigrams at a sequence start than inside."""
    (inside,) = SequenceLayout([3]).split(trigram_hashes("新华社", SequenceLayout([3])))
    _, edge = SequenceLayout([1, 2]).split(trigram_hashes("新华社", SequenceLayout([1, 2])))
    assert inside[1].tolist() != edge[0].tolist()
    assert inside[2, 4:].tolist() == edge[1, 4:].tolist()  # the right trigram (社, </s>, </s>) is the same
