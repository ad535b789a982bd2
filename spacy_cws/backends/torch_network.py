"""A segmenter's network run by torch: the frozen inference copy of its model."""
import threading
from typing import List

import numpy
from thinc.api import Model

from ..decoding.label_schemes import label_scheme
from ..nets.inference import inference_module, predict_with
from ..nets.padded_inputs import INFERENCE_LENGTH_MULTIPLE


class TorchNetwork:
    """Scores of a trained thinc segmentation model, by its inference copy
    (nets/inference.py: eval mode, no gradients, safe for concurrent threads).

    model: an initialized segmentation model (GDTransformer, BMESTagger).
    precision: the copy's precision ("float32", "bfloat16" or "auto").
    The copy is built on the first ``scores`` (one thread builds it). Make a
    new network whenever the model's weights change.
    RAISES ValueError: for an unknown precision or labels.
    """

    backend = "torch"
    length_multiple = INFERENCE_LENGTH_MULTIPLE  # of a batch's padded length (pad_features)

    def __init__(self, model: Model, precision: str):
        self.model = model
        self.precision = precision
        self.labels = model.attrs.get("labels", "gaps")
        self.decoder = label_scheme(model).decoder(model)
        self._module = None
        self._lock = threading.Lock()

    @property
    def module(self):
        """The inference copy (a torch module), built on first use."""
        with self._lock:
            if self._module is None:
                self._module = inference_module(self.model, self.precision)
            return self._module

    def scores(self, batch: List[numpy.ndarray]) -> List[numpy.ndarray]:
        """batch: per sequence int64 (n, 11 + K) features (featurizer.py).
        RETURNS per sequence float32 scores: (H, n + 1, 2) gap logits or (1, n, 4) emissions."""
        return predict_with(self.module, self.model, batch)

    def __getstate__(self):
        return {"model": self.model, "precision": self.precision}

    def __setstate__(self, state):
        self.__init__(state["model"], state["precision"])
