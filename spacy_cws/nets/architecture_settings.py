"""The checks of the segmentation architectures' settings, without torch.

The architecture functions (gd_transformer.py, bmes_tagger.py) run when a
pipeline's config is resolved, also where ONNX Runtime runs the network and
torch is not installed; the torch modules check the same settings with these.
"""
from typing import Sequence

DIRECTIONS = ("centre", "forward", "backward")  # the GD-Transformer's encoders
DECODERS = ("crf", "softmax")  # a BMES tagger's decoders


def validate_settings(
    width: int,
    depth: int,
    n_heads: int,
    encoders: Sequence[str],
    fusion: str,
    position: str,
    hired: bool,
    highway_input: bool,
    highway_output: bool,
) -> None:
    """Check a GD-Transformer configuration. RAISES ValueError naming the setting to fix."""
    unknown = [name for name in encoders if name not in DIRECTIONS]
    if unknown or not encoders:
        raise ValueError(f"encoders must be a non-empty subset of {DIRECTIONS}, got {list(encoders)}")
    if width % n_heads:
        raise ValueError(f"width {width} is not divisible by n_heads {n_heads}")
    if fusion not in ("gate", "sum"):
        raise ValueError(f"fusion must be 'gate' or 'sum', got '{fusion}'")
    if position not in ("none", "sinusoidal"):
        raise ValueError(f"position must be 'none' or 'sinusoidal', got '{position}'")
    if (highway_output or highway_input) and not hired:
        raise ValueError("highway_input and highway_output need hired = true")
    if hired and depth < 2:
        raise ValueError("hired needs depth >= 2 (it acts after layer depth // 2)")


def validate_tagger_settings(
    width: int, depth: int, n_heads: int, window: int, decoder: str, unigram_width: int, bigram_width: int
) -> None:
    """Check a BMES tagger configuration. RAISES ValueError naming the setting to fix."""
    if decoder not in DECODERS:
        raise ValueError(f"decoder must be one of {DECODERS}, got '{decoder}'")
    if width % n_heads:
        raise ValueError(f"width {width} is not divisible by n_heads {n_heads}")
    if depth < 1 or window < 0 or unigram_width < 1 or bigram_width < 0:
        raise ValueError(
            "BMES tagger needs depth >= 1, window >= 0, unigram_width >= 1 and bigram_width >= 0, "
            f"got {depth}, {window}, {unigram_width}, {bigram_width}"
        )
