"""The thinc wrapper of the GD-Transformer, registered as ``spacy-cws.GDTransformer.v2``, ``.v3`` and ``.v4``
(``.v1``, for pipelines saved with it, is in spacy_cws/legacy).

The torch module (pytorch_gd_transformer.py) is built in ``init`` once the
symbol vocabulary size ``nV`` is known (the segmenter sets it from its
training characters), following spacy-experimental's pairwise_bilinear wrapper.
"""
from typing import List, Optional

from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats3d, Ints2d

from .architecture_settings import validate_settings
from .charlm_symbols import charlm_folder
from .segmentation_model import segmentation_model

InT = List[Ints2d]
OutT = List[Floats3d]


@registry.architectures("spacy-cws.GDTransformer.v2")
def build_gd_transformer_v2(
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
    trigram_width: int = 0,
    trigram_rows: int = 0,
    word_slots: int = 0,
    word_width: int = 64,
    word_rows: int = 65536,
    criterion_heads: List[int] = [],
) -> Model[InT, OutT]:
    """The GD-Transformer gap scorer: ``spacy-cws.GDTransformer.v3`` without
    criteria of their own top layers (see there)."""
    return build_gd_transformer_v3(
        width, depth, n_heads, ff_width, dropout, attention_dropout, sigma, gaussian, directional,
        encoders, fusion, position, hired, highway_input, highway_output, bigram_width, trigram_width,
        trigram_rows, word_slots, word_width, word_rows, criterion_heads,
    )


@registry.architectures("spacy-cws.GDTransformer.v3")
def build_gd_transformer_v3(
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
    trigram_width: int = 0,
    trigram_rows: int = 0,
    word_slots: int = 0,
    word_width: int = 64,
    word_rows: int = 65536,
    criterion_heads: List[int] = [],
    criterion_layers: List[int] = [],
) -> Model[InT, OutT]:
    """The GD-Transformer gap scorer: ``spacy-cws.GDTransformer.v4`` without
    character LM features (see there)."""
    return build_gd_transformer_v4(
        width, depth, n_heads, ff_width, dropout, attention_dropout, sigma, gaussian, directional,
        encoders, fusion, position, hired, highway_input, highway_output, bigram_width, trigram_width,
        trigram_rows, word_slots, word_width, word_rows, criterion_heads, criterion_layers,
    )


@registry.architectures("spacy-cws.GDTransformer.v4")
def build_gd_transformer_v4(
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
    trigram_width: int = 0,
    trigram_rows: int = 0,
    word_slots: int = 0,
    word_width: int = 64,
    word_rows: int = 65536,
    criterion_heads: List[int] = [],
    criterion_layers: List[int] = [],
    charlm_path: Optional[str] = None,
    charlm_layers: int = 1,
) -> Model[InT, OutT]:
    """The GD-Transformer gap scorer (Duan & Zhao 2020; see GDTransformer).

    Input: a list of sequences, each int array (n, 11): per symbol its unigram
    id, left bigram id, right bigram id (ids >= 4, UNK = 1 for unknown ones;
    see features/symbol_ids.py), the sequence's criterion id (the same in
    every row), its lexicon flags and six trigram hashes
    (nets/feature_batch.py); BOS and EOS are added here. The bigram columns are used only
    when bigram_width > 0 (an extension after Qiu et al. 2020 eq. 13; the
    paper's model has bigram_width = 0), the criterion only when the dim nC
    (number of criteria) is above 0.
    Output: per sequence float array (H, n + 1, 2) of gap logits, H = 2 with
    Highway-O (head 0 final, head 1 early) else 1; gap g lies before symbol g,
    so gaps 0 and n are the sequence's outer edges.
    Defaults are the paper's Table 4 with the released code's sigma = 4.
    trigram_width, trigram_rows: hashed trigram vectors of this width from a
    table of this many rows (0 = none). The lexicon flags are used when the
    segmenter has a lexicon (dim nL, set by the segmenter).
    word_slots, word_width, word_rows: the word-POS attention of Gan & Zhang 2020 over the
    lexicon words holding each character, K = word_slots of them (0 = off),
    with word and POS embeddings of word_width and a hashed word table of
    word_rows rows (pytorch_word_pos_attention.py); then the input has
    11 + word_slots columns.
    criterion_heads: the ids of the criteria with gap scoring heads of their
    own (``spacy_cws adapt --gold`` sets it); the others share the heads.
    criterion_layers: the ids of the criteria that also run the top layer of
    every encoder as a copy of their own (``adapt --gold`` sets it, unless
    --gold-heads-only); the others share it.
    charlm_path: a character LM folder (``spacy project run pretrain-charlm``
    writes training/charlm/model) whose frozen vectors, the mean of its last
    charlm_layers layers, are added to each symbol's input (Gan & Zhang 2020
    section 4.1; nets/pytorch_charlm_features.py); null = none. The LM reads
    at most its positions (128) less BOS and EOS, so the segmenter's
    max_length must be at most 126 with the pretrain-charlm default; the
    folder must exist where the pipeline is loaded. Needs transformers
    (the charlm extra).
    RAISES ValueError: for a charlm_path that holds no character LM.
    """
    settings = dict(
        width=width,
        depth=depth,
        n_heads=n_heads,
        ff_width=ff_width,
        dropout=dropout,
        attention_dropout=attention_dropout,
        sigma=sigma,
        gaussian=gaussian,
        directional=directional,
        encoders=list(encoders),
        fusion=fusion,
        position=position,
        hired=hired,
        highway_input=highway_input,
        highway_output=highway_output,
        bigram_width=bigram_width,
        trigram_width=trigram_width,
        trigram_rows=trigram_rows,
        word_slots=word_slots,
        word_width=word_width,
        word_rows=word_rows,
        criterion_heads=list(criterion_heads),
        criterion_layers=list(criterion_layers),
    )
    validate_settings(width, depth, n_heads, encoders, fusion, position, hired, highway_input, highway_output)
    attrs = {}
    if charlm_path:
        settings["charlm_layers"] = charlm_layers
        # The folder is a Path attr, which thinc does not save with the model: where
        # the pipeline loads, its config's charlm_path is the one read. The symbol
        # vocabulary, which the LM's token map needs, is set with the vocabulary
        # sizes (segmenter/network.py); module_arguments.py passes both to the module.
        attrs = dict(charlm_path=charlm_folder(charlm_path), symbols="")
    return segmentation_model("gd_transformer", _module_class, settings, _convert_outputs, edges=True, **attrs)


def _module_class() -> type:
    from .pytorch_gd_transformer import GDTransformer  # torch: imported when the model is initialized

    return GDTransformer


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    from .padding import unpad_outputs

    X, Y_torch = inputs_outputs  # Y_torch: (H, B, T - 1, 2), gaps n + 1 per sequence
    return unpad_outputs(model.ops, Y_torch, [len(seq) + 1 for seq in X], batch_axis=1)
