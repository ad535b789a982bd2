"""The ``.v1`` architectures of 0.1.0, each its ``.v2`` with the settings ``.v2`` added left at their defaults.

Registered only through setup.cfg's ``spacy_architectures`` entry points (see
the package docstring), so they are imported when a config names them.
"""
from typing import List

from thinc.api import Model
from thinc.types import Floats3d, Ints2d

from ..nets.bmes_tagger import build_bmes_tagger_v2
from ..nets.gd_transformer import build_gd_transformer_v2

InT = List[Ints2d]
OutT = List[Floats3d]


def build_gd_transformer_v1(
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.1,
    attention_dropout: float = 0.0,
    sigma: float = 4.0,
    gaussian: bool = True,
    directional: bool = True,
    encoders: List[str] = ["centre", "forward", "backward"],
    fusion: str = "gate",
    position: str = "none",
    hired: bool = True,
    highway_input: bool = True,
    highway_output: bool = True,
    bigram_width: int = 0,
) -> Model[InT, OutT]:
    """``spacy-cws.GDTransformer.v1``: the GD-Transformer gap scorer of Duan & Zhao (2020) as released in
    0.1.0, i.e. ``spacy-cws.GDTransformer.v2`` without trigrams, word slots or criterion heads.

    Arguments, input and output as ``spacy_cws.nets.gd_transformer.build_gd_transformer_v2``.
    RAISES ValueError: settings that do not make a model (as ``.v2``).
    """
    return build_gd_transformer_v2(
        width, depth, n_heads, ff_width, dropout, attention_dropout, sigma, gaussian, directional,
        encoders, fusion, position, hired, highway_input, highway_output, bigram_width,
    )


def build_bmes_tagger_v1(
    unigram_width: int = 100,
    bigram_width: int = 100,
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.2,
    window: int = 0,
    decoder: str = "crf",
) -> Model[InT, OutT]:
    """``spacy-cws.BMESTagger.v1``: the BMES tagger as released in 0.1.0, i.e.
    ``spacy-cws.BMESTagger.v2`` without trigrams or word slots.

    Arguments, input and output as ``spacy_cws.nets.bmes_tagger.build_bmes_tagger_v2``.
    RAISES ValueError: settings that do not make a model (as ``.v2``).
    """
    return build_bmes_tagger_v2(unigram_width, bigram_width, width, depth, n_heads, ff_width, dropout, window, decoder)
