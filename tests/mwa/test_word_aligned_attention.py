"""The word-aligned attention module against a plain per-word reference."""
import pytest
import torch

from spacy_cws.mwa.pytorch_word_aligned_attention import (
    MultiSourceWordAlignedAttention,
    mixed_pool_keys,
    mixed_pool_rows,
)
from spacy_cws.mwa.windows import common_boundaries, segment_ids, window_spans

# Word lengths of "北京西山森林公园" and a padded neighbour (Table 1 of the paper).
THULAC = [2, 2, 4]
HANLP = [2, 2, 2, 2]


def reference_pool(attention, lengths, lam, axis):
    """Eq. 4-5 word by word, as written: a loop over words."""
    out = attention.clone()
    start = 0
    for length in lengths:
        end = start + length
        if axis == "key":
            block = attention[..., start:end]
            pooled = lam * block.max(dim=-1, keepdim=True).values + (1 - lam) * block.mean(dim=-1, keepdim=True)
            out[..., start:end] = pooled.expand_as(block)
        else:
            block = attention[..., start:end, :]
            pooled = lam * block.max(dim=-2, keepdim=True).values + (1 - lam) * block.mean(dim=-2, keepdim=True)
            out[..., start:end, :] = pooled.expand_as(block)
        start = end
    return out


@pytest.mark.parametrize("axis", ["key", "row"])
@pytest.mark.parametrize("lengths", [THULAC, HANLP, [1] * 8, [8], [3, 1, 4]])
def test_pooling_matches_per_word_reference(axis, lengths):
    torch.manual_seed(0)
    attention = torch.softmax(torch.randn(1, 3, 8, 8), dim=-1)
    segments = torch.as_tensor(segment_ids(lengths))[None]
    lam = torch.tensor(0.3)
    pool = mixed_pool_keys if axis == "key" else mixed_pool_rows
    got = pool(attention, segments, len(lengths), lam)
    assert torch.allclose(got, reference_pool(attention, lengths, 0.3, axis), atol=1e-6)


def test_single_character_words_leave_key_attention_unchanged():
    attention = torch.softmax(torch.randn(2, 2, 5, 5), dim=-1)
    segments = torch.arange(5).expand(2, 5)
    assert torch.allclose(mixed_pool_keys(attention, segments, 5, torch.tensor(0.7)), attention)


def module(**settings):
    torch.manual_seed(0)
    return MultiSourceWordAlignedAttention(16, 2, n_heads=4, dropout=0.0, **settings).eval()


def padded_batch():
    hidden = torch.randn(2, 8, 16)
    mask = torch.ones(2, 8, dtype=torch.bool)
    mask[1, 5:] = False
    segments = torch.stack(
        [
            torch.stack([torch.as_tensor(segment_ids(THULAC)), torch.as_tensor(segment_ids([2, 3, 3]))]),
            torch.stack([torch.as_tensor(segment_ids(HANLP)), torch.as_tensor(segment_ids([1, 1, 2, 4]))]),
        ],
        dim=1,
    )  # (M, B, T)
    return hidden, segments, mask


@pytest.mark.parametrize("pooling", ["key", "row"])
@pytest.mark.parametrize("fuse_encoder", [True, False])
def test_module_matches_reference_forward(pooling, fuse_encoder):
    """The whole layer (eq. 2-8) against a loop over words, sources and rows."""
    layer = module(pooling=pooling, fuse_encoder=fuse_encoder)
    hidden, segments, mask = padded_batch()
    got = layer(hidden, segments, mask)
    for row in range(2):
        n = int(mask[row].sum())
        h = hidden[row : row + 1, :n]
        attention, value = layer.attention(h, torch.ones(1, n, dtype=torch.bool))
        expected = h.clone() if fuse_encoder else torch.zeros(1, n, 16)
        for source in range(2):
            ids = segments[source, row, :n].tolist()
            lengths = [ids.count(w) for w in range(max(ids) + 1)]
            aligned = reference_pool(attention, lengths, float(layer.lambdas[source].detach()), pooling)
            heads = (aligned @ value).transpose(1, 2).reshape(1, n, -1)
            expected = expected + torch.tanh(layer.gate(torch.relu(layer.outputs[source](heads))))
        assert torch.allclose(got[row, :n], expected[0], atol=1e-5)
        assert not got[row, n:].any()


def test_padding_does_not_change_a_sequence():
    layer = module()
    hidden, segments, mask = padded_batch()
    batched = layer(hidden, segments, mask)[1, :5]
    alone = layer(hidden[1:, :5], segments[:, 1:, :5], mask[1:, :5])[0]
    assert torch.allclose(batched, alone, atol=1e-5)


def test_gradients_reach_lambda_and_every_source_projection():
    layer = module()
    layer.train()
    hidden, segments, mask = padded_batch()
    hidden.requires_grad_(True)
    layer(hidden, segments, mask).sum().backward()
    assert torch.isfinite(layer.lambdas.grad).all() and layer.lambdas.grad.abs().sum() > 0
    assert all(output.weight.grad.abs().sum() > 0 for output in layer.outputs)
    assert torch.isfinite(hidden.grad).all()


def test_settings_are_checked():
    with pytest.raises(ValueError, match="pooling"):
        MultiSourceWordAlignedAttention(16, 1, pooling="column")
    with pytest.raises(ValueError, match="segmentation source"):
        MultiSourceWordAlignedAttention(16, 0)


def test_windows_cover_everything_and_prefer_cuts():
    assert window_spans(0, 4) == []
    assert window_spans(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert window_spans(10, 4, cuts=[3, 6, 9]) == [(0, 3), (3, 6), (6, 10)]
    spans = window_spans(1000, 64, cuts=range(0, 1000, 7))
    assert spans[0][0] == 0 and spans[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert list(common_boundaries([THULAC, HANLP])) == [2, 4, 8]
