"""``spacy-cws.MWAListener.v1``: the tok2vec layer of downstream components
(``ner``, ``textcat``, ...) that share the ``mwa_enricher``'s encoder.

As spaCy's Tok2VecListener and spacy-transformers' TransformerListener: in
training the enricher computes the vectors once per batch and hands them, with
a backprop callback, to every listener (``receive``); at inference the
listener reads ``doc._.mwa_vectors``, set by the enricher earlier in the
pipeline. Its own class, so a plain ``tok2vec`` never adopts it.
"""
from typing import Callable, Iterable, List, Optional

from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats2d

VECTORS_ATTR = "mwa_vectors"
if not Doc.has_extension(VECTORS_ATTR):
    Doc.set_extension(VECTORS_ATTR, default=None)


class MWAListener(Model):
    """Proxy for the vectors of an upstream ``mwa_enricher`` (one row per token)."""

    name = "mwa-listener"

    def __init__(self, upstream_name: str, width: int) -> None:
        """upstream_name: the enricher's component name, or '*' for any.
        width: the enricher's output width."""
        Model.__init__(self, name=self.name, forward=forward, dims={"nO": width})
        self.upstream_name = upstream_name
        self._batch_id: Optional[int] = None
        self._outputs: Optional[List[Floats2d]] = None
        self._backprop: Optional[Callable] = None

    @classmethod
    def get_batch_id(cls, inputs: Iterable[Doc]) -> int:
        """A content-sensitive hash of a batch, to check that the listener's
        component sees the batch the enricher computed vectors for."""
        return sum(sum(token.orth for token in doc) for doc in inputs)

    def receive(self, batch_id: int, outputs: List[Floats2d], backprop: Callable) -> None:
        """Store a batch's vectors and the callback that backpropagates into the enricher."""
        self._batch_id = batch_id
        self._outputs = outputs
        self._backprop = backprop

    def backprop_and_clear(self, d_outputs: List[Floats2d]):
        """Call the stored backprop callback, then forget the batch (frees memory)."""
        result = self._backprop(d_outputs) if self._backprop is not None else None
        self._batch_id = None
        self._outputs = None
        self._backprop = None
        return result

    def verify_inputs(self, inputs: List[Doc]) -> bool:
        if self._batch_id is None and self._outputs is None:
            raise ValueError(
                "The MWA listener received no vectors for this batch: the mwa_enricher "
                "component must come before its listeners in the pipeline and be updated with them."
            )
        batch_id = self.get_batch_id(inputs)
        if batch_id != self._batch_id:
            raise ValueError(f"MWA listener: the batch differs from the enricher's ({batch_id} vs {self._batch_id})")
        return True


def forward(model: MWAListener, docs: List[Doc], is_train: bool):
    width = model.get_dim("nO")
    if is_train and model._batch_id is not None:
        model.verify_inputs(docs)
        return model._outputs, model.backprop_and_clear
    if is_train:
        # The enricher is frozen or annotating: use the vectors it set on the Docs.
        outputs = []
        for doc in docs:
            vectors = getattr(doc._, VECTORS_ATTR)
            if vectors is None:
                raise ValueError(
                    "doc._.mwa_vectors is not set: add 'mwa_enricher' to the pipeline before its "
                    "listeners (if it is frozen, also list it in [training] annotating_components)."
                )
            outputs.append(model.ops.asarray2f(vectors))
        return outputs, _empty_backprop
    outputs = []
    for doc in docs:
        vectors = getattr(doc._, VECTORS_ATTR)
        if vectors is None or len(vectors) != len(doc):
            # As Tok2VecListener: output of the right shape before the enricher has run.
            outputs.append(model.ops.alloc2f(len(doc), width))
        else:
            outputs.append(model.ops.asarray2f(vectors))
    return outputs, _empty_backprop


def _empty_backprop(dX):  # module level, so the model pickles
    return []


@registry.architectures("spacy-cws.MWAListener.v1")
def build_mwa_listener(width: int, upstream: str = "*") -> Model[List[Doc], List[Floats2d]]:
    """The vectors of an upstream ``mwa_enricher`` as a tok2vec layer, one row per
    token. width: the enricher's output width; upstream: its component name or '*'."""
    return MWAListener(upstream_name=upstream, width=width)
