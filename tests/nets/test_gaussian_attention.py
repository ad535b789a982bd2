import math

import pytest
import torch

from spacy_cws.nets.pytorch_gaussian_attention import (
    GaussianDirectionalAttention,
    direction_mask,
    gaussian_weights,
)


def test_gaussian_weights_at_distances_0_to_4():
    """G = 2 * Phi(-d / sigma); the released code's sigma = 4 gives 1, .80, .62, .45, .32."""
    g = gaussian_weights(10, sigma=4.0)
    expected = [1.0, 0.80, 0.62, 0.45, 0.32]
    for distance, value in enumerate(expected):
        assert g[0, distance].item() == pytest.approx(value, abs=0.005)
        # 2 * Phi(-x) computed independently with math.erf
        phi = 0.5 * (1 + math.erf(-distance / 4.0 / math.sqrt(2)))
        assert g[3, 3 + distance].item() == pytest.approx(2 * phi, rel=1e-5)
    assert torch.equal(g, g.T)


def test_gaussian_weights_vanish_far_away():
    g = gaussian_weights(80, sigma=4.0)
    assert g[0, 56].item() > 0
    assert g[0, 57].item() == 0.0  # float32 underflow, as in the released code


def test_direction_masks():
    n = 5
    forward = direction_mask(n, "forward")
    backward = direction_mask(n, "backward")
    centre = direction_mask(n, "centre")
    for i in range(n):
        for j in range(n):
            assert forward[i, j].item() == (j <= i)
            assert backward[i, j].item() == (j >= i)
            assert centre[i, j].item()
    with pytest.raises(ValueError, match="direction"):
        direction_mask(n, "sideways")


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_directional_attention_ignores_masked_keys(direction):
    """Changing a key the mask hides must not change the output."""
    torch.manual_seed(0)
    attention = GaussianDirectionalAttention(width=8, n_heads=2, attention_dropout=0.0).eval()
    x = torch.randn(1, 6, 8)
    allowed = direction_mask(6, direction)[None, None]
    gauss = gaussian_weights(6, 4.0)
    out = attention(x, allowed, gauss)
    changed = x.clone()
    hidden_position = 5 if direction == "forward" else 0
    changed[0, hidden_position] += 10.0
    out_changed = attention(changed, allowed, gauss)
    visible = [i for i in range(6) if i != hidden_position]
    assert torch.allclose(out[0, visible], out_changed[0, visible], atol=1e-6)
    assert not torch.allclose(out[0, hidden_position], out_changed[0, hidden_position])
