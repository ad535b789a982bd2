"""The thinc wrapper of the built-in character encoder, ``spacy-cws.MWACharEncoder.v1``.

Input: Docs. Output: per Doc a float array (len(doc.text), width), one row per
character of the text (whitespace included), so the MWA layer sees exactly
the characters that the segmentation sources cover. Texts longer than
max_length are cut into windows at token starts and reassembled.

The torch module (pytorch_char_encoder.py) is imported when the encoder is
built, so that spaCy can import this module (it imports every registered
function's module when a lookup misses) in an install without torch.
"""
from typing import Callable, List, Tuple

from spacy.attrs import IDX
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, xp2torch
from thinc.types import Floats2d, Ints2d

from ..backends.choice import require_torch
from .windows import Window, join_windows, split_windows, window_spans

InT = List[Doc]
OutT = List[Floats2d]


@registry.architectures("spacy-cws.MWACharEncoder.v1")
def build_char_encoder(
    width: int = 128,
    depth: int = 2,
    n_heads: int = 4,
    ff_width: int = 256,
    n_rows: int = 20000,
    max_length: int = 256,
    dropout: float = 0.1,
    conv_depth: int = 1,
    window_size: int = 1,
) -> Model[InT, OutT]:
    """A small character encoder trained from scratch (see CharacterEncoder):
    two hashed embeddings per character + learned positions + ``conv_depth``
    residual convolutions over ``window_size`` characters each side + ``depth``
    pre-norm Transformer layers of ``width``.

    RAISES ValueError: for settings out of range; ImportError: without torch,
        naming the train extra.
    """
    if width % n_heads:
        raise ValueError(f"width {width} is not divisible by n_heads {n_heads}")
    if conv_depth < 0 or window_size < 0 or depth < 0:
        raise ValueError(f"depth, conv_depth and window_size must be >= 0, got {depth}, {conv_depth}, {window_size}")
    if max_length < 1 or n_rows < 1:
        raise ValueError(f"max_length and n_rows must be >= 1, got {max_length}, {n_rows}")
    settings = dict(
        n_rows=n_rows,
        width=width,
        depth=depth,
        n_heads=n_heads,
        ff_width=ff_width,
        max_length=max_length,
        dropout=dropout,
        conv_depth=conv_depth,
        window_size=window_size,
    )
    require_torch("The MWA character encoder (spacy-cws.MWACharEncoder.v1)")
    from .pytorch_char_encoder import CharacterEncoder

    # Built now, not in init: every setting is known, and a pipeline loaded
    # from disk (e.g. by spaCy's tok2vec component, which does not initialize
    # before from_bytes) must have the same layer structure as the saved one.
    module = CharacterEncoder(**settings)
    wrapper = PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_outputs)
    return Model("mwa_char_encoder", forward, layers=[wrapper], dims={"nO": width}, attrs={"settings": settings})


def forward(model: Model, docs: InT, is_train: bool) -> Tuple[OutT, Callable]:
    from .pytorch_char_encoder import hash_characters

    settings = model.attrs["settings"]
    width = model.get_dim("nO")
    windows: List[Window] = []
    hashed = []
    for i, doc in enumerate(docs):
        cuts = doc.to_array([IDX]).reshape(-1) if len(doc) else ()
        hashed.append(hash_characters(doc.text, settings["n_rows"]))
        windows.extend((i, start, end) for start, end in window_spans(len(doc.text), settings["max_length"], cuts))
    if not windows:
        return [model.ops.alloc2f(0, width) for _ in docs], lambda dY: []
    Y_windows, backprop_windows = model.layers[0](split_windows(windows, hashed), is_train)
    outputs = join_windows(model.ops, windows, Y_windows, len(docs), width)

    def backprop(dY: OutT) -> List:
        backprop_windows(split_windows(windows, dY))
        return []

    return outputs, backprop


def _convert_inputs(model: Model, X: List[Ints2d], is_train: bool):
    from ..nets.padding import HOST_OPS, length_mask

    ids = HOST_OPS.pad(X)  # (B, T, 2)
    mask = length_mask(HOST_OPS, [len(x) for x in X], ids.shape[1])
    device = model.shims[0].device
    args = (xp2torch(ids, device=device), xp2torch(mask, device=device))
    return ArgsKwargs(args=args, kwargs={}), lambda d_inputs: []


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    from ..nets.padding import unpad_outputs

    X, Y_torch = inputs_outputs  # Y_torch: (B, T, width)
    return unpad_outputs(model.ops, Y_torch, [len(x) for x in X])
