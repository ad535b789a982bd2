"""Keep only a trained segmenter's most frequent bigrams.

The bigram table is most of a pipeline's bytes (int4 blocks: 41 bytes a
64-wide row). Its vocabulary is stored most frequent first
(initialization.py: the training bigrams seen at least bigram_min_count
times, by count, then the pretrained vectors' bigrams the training text
lacks), so its first rows are the bigrams most text reads. Dropping the
rest sends them to UNK's row, which in training stood for the bigrams under
bigram_min_count: a higher minimum count after the fact, with no
retraining. What it costs or gains, and the rows the shipped pipelines
keep: docs/experiments/inference.md, "Fewer bigram rows".
"""
from ..features.symbol_ids import N_SPECIAL_SYMBOLS, SymbolIds
from .network import SegmenterNetwork


def keep_frequent_bigrams(network: SegmenterNetwork, n_bigrams: int, component: str) -> int:
    """Keep the ``n_bigrams`` most frequent bigrams of ``network``'s
    vocabulary and their rows of the bigram table; the others read UNK's row.
    Any ONNX graph goes (export again). RETURNS the bigrams dropped (0 when
    the vocabulary has no more than n_bigrams).

    RAISES ValueError: if n_bigrams is below 1, or the component is not
        initialized; ImportError: without torch, naming the train extra.
    """
    from ..nets.lookup_table import keep_first_rows
    from ..nets.wrapped_module import torch_module

    if n_bigrams < 1:
        raise ValueError(f"Keep at least 1 bigram, got {n_bigrams}")
    network.check_initialized(component)
    featurizer = network.featurizer
    pairs = featurizer.symbol_ids.pair_unigram_ids()
    if len(pairs) <= n_bigrams:  # a model without bigrams (bigram_width 0) among them
        return 0
    network.require_weights(component)
    table = getattr(torch_module(network.model), "bigram_embedding", None)
    if table is None:
        raise ValueError(f"'{component}' has {len(pairs):,} bigrams but no bigram table: a damaged model")
    featurizer.symbol_ids = SymbolIds(featurizer.symbols, pairs[:n_bigrams])
    keep_first_rows(table, n_bigrams + N_SPECIAL_SYMBOLS)
    network.model.set_dim("nB", featurizer.symbol_ids.n_bigrams, force=True)
    network.weights_changed()
    return len(pairs) - n_bigrams
