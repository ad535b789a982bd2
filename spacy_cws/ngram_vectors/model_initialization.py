"""Pretrained n-gram vectors into a segmentation model: the vocabularies grow
by the pretrained symbols and pairs, and the embedding tables start from the
vectors (Ma et al. 2018, section 2.2: pretrained character and bigram
embeddings, fine-tuned in training).

A character or bigram never seen in training but seen in the pretraining text
gets a vector that places it near similar n-grams, which is where most of the
out-of-vocabulary gain comes from.
"""
from typing import Dict, List, Sequence, Tuple

import numpy
import torch
from torch import nn

from ..features.character_view import Normaliser
from ..features.symbol_ids import SEQUENCE_END, SEQUENCE_START, UNK, SymbolIds
from .ngram_tokens import split_bigram_key
from .ngram_vectors import NgramVectors


def check_normalisation(vectors: NgramVectors, normaliser: Normaliser, component: str) -> None:
    """RAISES ValueError: when the vectors' symbols were made by another
    Normaliser setting than the component's (their symbols would not match)."""
    ours = {"fold_width": normaliser.fold_width, "collapse_runs": normaliser.collapse_runs, "opencc": normaliser.opencc}
    if dict(vectors.normalisation) != ours:
        raise ValueError(
            f"'{component}' normalises with {ours} but the n-gram vectors were made with {vectors.normalisation}: "
            "rerun ngram-vectors with the component's settings"
        )


def extend_vocabularies(
    symbols: Sequence[str], bigrams: Sequence[Tuple[str, str]], vectors: NgramVectors, with_bigrams: bool
) -> Tuple[List[str], List[Tuple[str, str]]]:
    """The training vocabularies followed by the pretrained unigrams and (with
    with_bigrams) pretrained bigrams they lack, most frequent first; a
    pretrained bigram is kept only if both its symbols are unigrams."""
    known = set(symbols)
    symbols = list(symbols) + [key for key in vectors.unigrams.index_to_key if len(key) == 1 and key not in known]
    if not with_bigrams:
        return symbols, list(bigrams)
    unigrams = set(symbols) | {SEQUENCE_START, SEQUENCE_END}
    known_pairs = {tuple(pair) for pair in bigrams}
    extra = []
    for key in vectors.bigrams.index_to_key:
        pair = split_bigram_key(key)
        if pair not in known_pairs and pair[0] in unigrams and pair[1] in unigrams:
            extra.append(pair)
    return symbols, [tuple(pair) for pair in bigrams] + extra


def _copy_rows(table: nn.Embedding, ids: numpy.ndarray, vectors: numpy.ndarray) -> int:
    """Copy vectors (n, width) into rows ``ids`` of table, scaled to the table's
    initial standard deviation (so the vectors do not swamp, or vanish beside,
    the other inputs). RETURNS the rows copied. RAISES ValueError: on a width
    mismatch."""
    if vectors.shape[1] != table.embedding_dim:
        raise ValueError(
            f"pretrained vectors of width {vectors.shape[1]} for an embedding table of width "
            f"{table.embedding_dim}: rerun ngram-vectors with the model's widths"
        )
    known = ids > UNK  # PAD and UNK never take a pretrained vector
    ids, vectors = ids[known], vectors[known]
    with torch.no_grad():
        scale = table.weight.std().item() / max(float(vectors.std()), 1e-12)
        table.weight[torch.as_tensor(ids)] = torch.as_tensor(vectors * scale, dtype=table.weight.dtype)
    return int(len(ids))


def copy_into_model(
    module: nn.Module, symbol_ids: SymbolIds, symbols: Sequence[str], vectors: NgramVectors
) -> Dict[str, int]:
    """Start module.embedding (and module.bigram_embedding, when the model has
    one) from the vectors. symbols: the unigram vocabulary of symbol_ids.
    RETURNS the rows copied per table."""
    known_symbols = {*symbols, SEQUENCE_START, SEQUENCE_END}

    unigram_keys = [key for key in vectors.unigrams.index_to_key if len(key) == 1]
    copied = {"unigrams": _copy_rows(
        module.embedding, symbol_ids.unigram_ids("".join(unigram_keys)), vectors.unigrams[unigram_keys]
    )}
    bigram_table = getattr(module, "bigram_embedding", None)
    if bigram_table is not None:
        keys = [key for key in vectors.bigrams.index_to_key if known_symbols.issuperset(split_bigram_key(key))]
        pairs = [split_bigram_key(key) for key in keys]
        copied["bigrams"] = _copy_rows(bigram_table, symbol_ids.bigram_ids(pairs), vectors.bigrams[keys])
    return copied
