"""Inference batches of one padded length (nets/inference_batches.py), on the
lengths of CTB6 test's sentences."""
import numpy
import pytest
from spacy.training.batchers import minibatch_by_padded_size

from spacy_cws.nets.inference_batches import batches_by_padded_length
from spacy_cws.nets.padded_inputs import INFERENCE_LENGTH_MULTIPLE, ONNX_LENGTH_MULTIPLE, padded_length


@pytest.fixture(scope="module")
def ctb6_sequences(shared_data):
    """One feature-like array per CTB6 test sentence, as long as its characters."""
    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").splitlines()
    return [numpy.zeros((len("".join(line.split())), 11), dtype=numpy.int64) for line in lines if line.strip()]


@pytest.mark.parametrize("multiple", [INFERENCE_LENGTH_MULTIPLE, ONNX_LENGTH_MULTIPLE])
@pytest.mark.parametrize("batch_units", [1, 256, 2048, 16384])
def test_batches_hold_every_sequence_once_at_one_padded_length(ctb6_sequences, batch_units, multiple):
    batches = list(batches_by_padded_length(ctb6_sequences, batch_units, multiple))
    assert sorted(i for batch in batches for i in batch) == list(range(len(ctb6_sequences)))
    for batch in batches:
        lengths = {padded_length(ctb6_sequences[i], multiple) for i in batch}
        assert len(lengths) == 1
        assert len(batch) == 1 or len(batch) * lengths.pop() <= batch_units
        assert batch == sorted(batch)  # a length's sequences in their given order


def test_batches_run_fewer_positions_than_spacys_padded_size_batcher(ctb6_sequences):
    """In nlp.pipe's batches of 256 sentences, the positions run (batch x its
    padded length) are fewer than with spaCy's batcher, which mixes lengths
    (both at torch's length multiple)."""

    def positions(batches):
        return sum(len(batch) * max(map(padded_length, batch)) for batch in batches)

    ours = theirs = 0
    for first in range(0, len(ctb6_sequences), 256):
        sequences = ctb6_sequences[first : first + 256]
        ours_batches = batches_by_padded_length(sequences, 2048, INFERENCE_LENGTH_MULTIPLE)
        ours += positions([[sequences[i] for i in batch] for batch in ours_batches])
        theirs_batches = minibatch_by_padded_size(sequences, size=2048, buffer=len(sequences), get_length=padded_length)
        theirs += positions(theirs_batches)
    assert ours < 0.95 * theirs


def test_no_sequences_no_batches_and_batch_units_below_one_is_refused():
    assert list(batches_by_padded_length([], 2048, ONNX_LENGTH_MULTIPLE)) == []
    with pytest.raises(ValueError, match="batch_units"):
        list(batches_by_padded_length([numpy.zeros((3, 11))], 0, ONNX_LENGTH_MULTIPLE))
