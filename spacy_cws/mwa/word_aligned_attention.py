"""The thinc model of the MWA enricher, registered as ``spacy-cws.MWAEnricher.v1``.

Docs -> character encoder -> multi-source word-aligned attention over the
characters (pytorch_word_aligned_attention.py) -> mean of each token's
characters. The segmentations are read from ``doc._.cws_segmentations`` for the
source names in the ``word_aligned_attention`` layer's ``attrs["sources"]``
(the ``mwa_enricher`` component fills both).

Long texts: the attention sees at most ``max_length`` characters at once; a
longer text is cut at word ends shared by all sources (hard cuts where there
are none) and the windows' outputs are concatenated, so nothing is truncated.

The torch module is imported when the attention is built (``init``), so that
spaCy can import this module (it imports every registered function's module
when a lookup misses) in an install without torch.
"""
from typing import Callable, List, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, torch2xp, xp2torch
from thinc.types import Floats2d, Ints2d

from ..backends.choice import require_torch
from .sources import SEGMENTATIONS_ATTR, get_segmentations
from .token_pooling import chars_to_tokens
from .token_vectors_to_characters import TOK2VEC_REF
from .windows import Window, common_boundaries, join_windows, segment_ids, split_windows, window_spans

MWA_LAYER = "word_aligned_attention"
ENCODER_REF = "encoder"
MWA_REF = "mwa"


@registry.architectures("spacy-cws.MWAEnricher.v1")
def build_mwa_enricher(
    encoder: Model[List[Doc], List[Floats2d]],
    width: int = 128,
    n_heads: int = 4,
    head_width: Optional[int] = None,
    pooling: str = "key",
    activation: bool = True,
    fuse_encoder: bool = True,
    lambda_init: float = 0.5,
    dropout: float = 0.1,
    attention_dropout: float = 0.0,
    max_length: int = 256,
    output_norm: bool = True,
) -> Model[List[Doc], List[Floats2d]]:
    """Word-aligned attention over a character encoder, pooled to tokens.

    encoder: Docs -> per Doc (len(doc.text), nI) character vectors, e.g.
        ``spacy-cws.MWACharEncoder.v1``.
    width: output width of the fused vectors (the listeners' width).
    n_heads, head_width (None: nI // n_heads): the attention heads.
    pooling: "key" (the released code, default) or "row" (the paper).
    activation: ReLU on the Q/K/V and per-source projections (released code)
        or none (paper). fuse_encoder: add the raw encoder output H to the
        fusion sum (the released code's extra term; default: a residual path
        that keeps each character's own information; width must then equal
        the encoder's), else only the sources (eq. 8).
    max_length: most characters the attention sees at once.
    output_norm: LayerNorm on the fused vectors (not in the paper; it gives
        the listeners inputs of unit scale, as a BERT encoder's are).
    Refs: "encoder", "mwa" (the attention) and, when the encoder has one,
    "tok2vec": the layer that ``[pretraining] layer = "tok2vec"`` pretrains
    and ``[initialize] init_tok2vec`` loads.
    Output: per Doc a float array (len(doc), width), the mean over each
    token's characters of the fused character vectors.
    RAISES ValueError: for settings out of range; ImportError: without torch,
        naming the train extra (the attention runs on torch).
    """
    require_torch("The MWA enricher (spacy-cws.MWAEnricher.v1)")
    if pooling not in ("key", "row"):
        raise ValueError(f"pooling must be 'key' or 'row', got '{pooling}'")
    if max_length < 1:
        raise ValueError(f"max_length must be >= 1, got {max_length}")
    settings = dict(
        width=width,
        n_heads=n_heads,
        head_width=head_width,
        pooling=pooling,
        activation=activation,
        fuse_encoder=fuse_encoder,
        lambda_init=lambda_init,
        dropout=dropout,
        attention_dropout=attention_dropout,
        output_norm=output_norm,
    )
    mwa = Model(
        MWA_LAYER,
        mwa_forward,
        init=mwa_init,
        dims={"nI": None, "nO": width, "nM": None},
        attrs={"settings": settings, "max_length": max_length, "sources": []},
    )
    refs = {ENCODER_REF: encoder, MWA_REF: mwa}
    if encoder.has_ref(TOK2VEC_REF):
        refs[TOK2VEC_REF] = encoder.get_ref(TOK2VEC_REF)
    return Model(
        "mwa_enricher",
        enricher_forward,
        init=enricher_init,
        layers=[encoder, mwa],
        refs=refs,
        dims={"nO": width},
    )


def set_sources(model: Model, names: Sequence[str]) -> None:
    """Tell the model which stored segmentations to read, in order. RAISES
    ValueError when its attention was already built for another number of sources."""
    mwa = model.get_ref(MWA_REF)
    if mwa.layers and mwa.get_dim("nM") != len(names):
        raise ValueError(
            f"This MWA model was built for {mwa.get_dim('nM')} segmentation sources, "
            f"not the {len(names)} configured ({list(names)})."
        )
    mwa.attrs["sources"] = list(names)
    if not mwa.layers:
        mwa.set_dim("nM", len(names), force=True)


# -- the whole enricher ----------------------------------------------------------------


def enricher_init(model: Model, X: Optional[List[Doc]] = None, Y=None) -> None:
    encoder, mwa = model.layers
    encoder.initialize(X=X)
    if not mwa.has_dim("nI") or mwa.get_dim("nI") is None:
        if encoder.has_dim("nO") and encoder.get_dim("nO"):
            mwa.set_dim("nI", encoder.get_dim("nO"))
        elif X:
            mwa.set_dim("nI", encoder.predict(X[:1])[0].shape[1])
    mwa.initialize()


def enricher_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    encoder, mwa = model.layers
    chars, backprop_encoder = encoder(docs, is_train)
    enriched, backprop_mwa = mwa((docs, chars), is_train)
    tokens, backprop_tokens = chars_to_tokens(model.ops, docs, enriched)

    def backprop(d_tokens: List[Floats2d]) -> List:
        d_chars = backprop_mwa(backprop_tokens(d_tokens))
        return backprop_encoder(d_chars)

    return tokens, backprop


# -- the word-aligned attention layer ---------------------------------------------------


def mwa_init(model: Model, X=None, Y=None) -> None:
    if model.layers:
        return
    if not model.has_dim("nM") or model.get_dim("nM") is None:
        raise ValueError(
            "The word-aligned attention has no segmentation sources: build it through the "
            "mwa_enricher component, or call set_sources(model, names) first."
        )
    from .pytorch_word_aligned_attention import MultiSourceWordAlignedAttention

    settings = dict(model.attrs["settings"])
    module = MultiSourceWordAlignedAttention(model.get_dim("nI"), model.get_dim("nM"), **settings)
    model._layers.append(PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_outputs))


def doc_segment_ids(doc: Doc, names: Sequence[str]) -> Tuple[Ints2d, numpy.ndarray]:
    """Per source the word index of every character (int64 (M, len(doc.text)))
    and the word ends shared by all sources. RAISES ValueError when a
    segmentation is missing or does not cover the text."""
    stored = get_segmentations(doc)
    rows = []
    for name in names:
        lengths = stored.get(name)
        if lengths is None or sum(lengths) != len(doc.text):
            raise ValueError(
                f"Doc {doc.text[:20]!r}... has no valid segmentation '{name}' in doc._.{SEGMENTATIONS_ATTR}: "
                "run the docs through the mwa_enricher component (which computes them) or "
                "spacy_cws.mwa.sources.add_segmentations first."
            )
        rows.append(segment_ids(lengths))
    return numpy.stack(rows), common_boundaries([stored[name] for name in names])


def mwa_forward(model: Model, inputs: Tuple[List[Doc], List[Floats2d]], is_train: bool):
    docs, chars = inputs
    names = model.attrs["sources"]
    width = model.get_dim("nO")
    windows: List[Window] = []
    X = []
    for i, (doc, H) in enumerate(zip(docs, chars)):
        if not len(doc.text):
            continue
        ids, cuts = doc_segment_ids(doc, names)
        for start, end in window_spans(len(doc.text), model.attrs["max_length"], cuts):
            windows.append((i, start, end))
            X.append((H[start:end], ids[:, start:end] - ids[:, start : start + 1]))
    if not windows:
        return [model.ops.alloc2f(len(H), width) for H in chars], lambda dY: [
            model.ops.alloc2f(*H.shape) for H in chars
        ]
    Y_windows, backprop_windows = model.layers[0](X, is_train)
    outputs = join_windows(model.ops, windows, Y_windows, len(docs), width)

    def backprop(dY: List[Floats2d]) -> List[Floats2d]:
        dX_windows = backprop_windows(split_windows(windows, dY))
        return join_windows(model.ops, windows, dX_windows, len(docs), model.get_dim("nI"))

    return outputs, backprop


def _convert_inputs(model: Model, X: List[Tuple[Floats2d, Ints2d]], is_train: bool):
    from ..nets.padding import HOST_OPS, length_mask

    ops = model.ops
    lengths = [len(H) for H, _ in X]
    hidden = ops.pad([H for H, _ in X])  # (B, T, d)
    by_sequence = HOST_OPS.pad([ops.to_numpy(ids).T for _, ids in X])  # (B, T, M)
    segments = numpy.ascontiguousarray(by_sequence.transpose(2, 0, 1))  # (M, B, T)
    mask = length_mask(HOST_OPS, lengths, hidden.shape[1])
    device = model.shims[0].device
    hidden_torch = xp2torch(hidden, requires_grad=is_train, device=device)
    args = (hidden_torch, xp2torch(segments, device=device), xp2torch(mask, device=device))

    def convert_from_torch_backward(d_inputs: ArgsKwargs) -> List[Floats2d]:
        d_hidden = d_inputs.args[0]
        if d_hidden is None:
            return [ops.alloc2f(n, hidden.shape[2]) for n in lengths]
        return ops.unpad(torch2xp(d_hidden), lengths)

    return ArgsKwargs(args=args, kwargs={}), convert_from_torch_backward


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    from ..nets.padding import unpad_outputs

    X, Y_torch = inputs_outputs  # Y_torch: (B, T, width)
    return unpad_outputs(model.ops, Y_torch, [len(H) for H, _ in X])
