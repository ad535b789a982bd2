"""The thinc wrapper of the BMES taggers, registered as ``spacy-cws.BMESTagger.v2`` and ``.v3``
(``.v1``, for pipelines saved with it, is in spacy_cws/legacy).

Same input as the GD-Transformer (per sequence int (n, 4): unigram, left and
right bigram, criterion ids) so the ``gd_segmenter`` component runs either;
the model's ``attrs["labels"] = "bmes"`` tells the component to train and
decode B/M/E/S tags instead of gaps. With the CRF decoder the transitions
live in the torch module; crf_loss.py computes its loss.
"""
from typing import List, Optional

from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats3d, Ints2d

from .architecture_settings import validate_tagger_settings
from .charlm_symbols import charlm_folder
from .segmentation_model import segmentation_model

InT = List[Ints2d]
OutT = List[Floats3d]


@registry.architectures("spacy-cws.BMESTagger.v2")
def build_bmes_tagger_v2(
    unigram_width: int = 100,
    bigram_width: int = 100,
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.2,
    window: int = 0,
    decoder: str = "crf",
    trigram_width: int = 0,
    trigram_rows: int = 0,
    word_slots: int = 0,
    word_width: int = 64,
    word_rows: int = 65536,
) -> Model[InT, OutT]:
    """A Transformer BMES tagger: ``spacy-cws.BMESTagger.v3`` without
    character LM features (see there)."""
    return build_bmes_tagger_v3(
        unigram_width, bigram_width, width, depth, n_heads, ff_width, dropout, window, decoder,
        trigram_width, trigram_rows, word_slots, word_width, word_rows,
    )


@registry.architectures("spacy-cws.BMESTagger.v3")
def build_bmes_tagger_v3(
    unigram_width: int = 100,
    bigram_width: int = 100,
    width: int = 256,
    depth: int = 6,
    n_heads: int = 4,
    ff_width: int = 1024,
    dropout: float = 0.2,
    window: int = 0,
    decoder: str = "crf",
    trigram_width: int = 0,
    trigram_rows: int = 0,
    word_slots: int = 0,
    word_width: int = 64,
    word_rows: int = 65536,
    charlm_path: Optional[str] = None,
    charlm_layers: int = 1,
) -> Model[InT, OutT]:
    """A Transformer BMES tagger (see pytorch_bmes_tagger.BMESTagger).

    Defaults are Qiu et al. 2020 Table 3 (the multi-criteria Transformer);
    Gan & Zhang 2020's SAN-CRF is width 512, depth 2, 8 heads, ff_width 2048,
    unigram/bigram width 50, dropout 0.1, window 5.
    trigram_width, trigram_rows: hashed trigram vectors (0 = none); the
    lexicon flags are used when the segmenter has a lexicon (dim nL).
    word_slots, word_width, word_rows: Gan & Zhang 2020's word-POS attention (as
    ``spacy-cws.GDTransformer.v2``; 0 slots = off).
    charlm_path, charlm_layers: a character LM folder (``spacy project run
    pretrain-charlm``) whose frozen vectors, the mean of its last
    charlm_layers layers, are projected and added to each character's input
    (Gan & Zhang 2020 section 4.1, their SAN-CRF "+BERT";
    nets/pytorch_charlm_features.py), as ``spacy-cws.GDTransformer.v4``'s:
    the LM reads the sequence between [CLS] and [SEP], so max_length must be
    at most its positions less 2 (126 with the pretrain-charlm default); the
    folder must exist where the pipeline is loaded; needs transformers (the
    charlm extra). null = none.
    Input: per sequence int (n, 11 + word_slots) (nets/feature_batch.py). Output: per sequence float (1, n, 4) of
    B/M/E/S emission scores (one head, so the component's per-head loss code
    applies unchanged).
    RAISES ValueError: for a charlm_path that holds no character LM.
    """
    settings = dict(
        unigram_width=unigram_width,
        bigram_width=bigram_width,
        width=width,
        depth=depth,
        n_heads=n_heads,
        ff_width=ff_width,
        dropout=dropout,
        window=window,
        decoder=decoder,
        trigram_width=trigram_width,
        trigram_rows=trigram_rows,
        word_slots=word_slots,
        word_width=word_width,
        word_rows=word_rows,
    )
    validate_tagger_settings(width, depth, n_heads, window, decoder, unigram_width, bigram_width)
    attrs = {}
    if charlm_path:
        settings["charlm_layers"] = charlm_layers
        # The folder is a Path attr, which thinc does not save with the model: where
        # the pipeline loads, its config's charlm_path is the one read. The symbol
        # vocabulary, which the LM's token map needs, is set with the vocabulary
        # sizes (segmenter/network.py); module_arguments.py passes both to the module.
        attrs = dict(charlm_path=charlm_folder(charlm_path), symbols="")
    return segmentation_model(
        "bmes_tagger", _module_class, settings, _convert_outputs, edges=False, labels="bmes", **attrs
    )


def _module_class() -> type:
    from .pytorch_bmes_tagger import BMESTagger  # torch: imported when the model is initialized

    return BMESTagger


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    from .padding import unpad_outputs

    X, Y_torch = inputs_outputs  # Y_torch: (B, T, 4), seen as one head (1, B, T, 4)
    return unpad_outputs(model.ops, Y_torch[None], [len(seq) for seq in X], batch_axis=1)
