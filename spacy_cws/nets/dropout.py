"""The training dropout rate of a segmentation model's torch module.

spaCy passes ``[training] dropout`` to each component's ``update``, which sets
it on the thinc model (``thinc.api.set_dropout_rate``: the model's
``attrs["dropout_rate"]``); the thinc shell applies it to its torch module
before every training pass (feature_batch.py). It sets every dropout that the
architecture's ``dropout`` setting sets; attention-weight dropout with a
setting of its own (the GD-Transformer's ``attention_dropout``) keeps it.
Prediction never drops: the segmenter predicts with a frozen eval-mode copy
(inference.py).
"""
from torch import nn


class AttentionDropout(nn.Dropout):
    """Dropout on attention weights, set by its own ``attention_dropout``
    setting: ``[training] dropout`` leaves it alone."""


def set_module_dropout(module: nn.Module, rate: float) -> None:
    """Set ``rate`` on every dropout of ``module`` but the AttentionDropouts:
    ``nn.Dropout`` layers and ``nn.MultiheadAttention``'s attention dropout
    (the BMES taggers' encoder layers drop their attention weights at the
    model's ``dropout``).

    RAISES ValueError: for a rate outside [0, 1].
    """
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"A dropout rate must be between 0 and 1, got {rate}")
    for layer in module.modules():
        if isinstance(layer, nn.Dropout) and not isinstance(layer, AttentionDropout):
            layer.p = rate
        elif isinstance(layer, nn.MultiheadAttention):
            layer.dropout = rate
