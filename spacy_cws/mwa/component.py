"""The ``mwa_enricher`` component: multi-source word-aligned attention (Li et
al. 2020) as an upstream encoder shared by downstream components.

It works like spaCy's ``tok2vec`` and spacy-transformers' ``transformer``: it
encodes the characters of every Doc, applies word-aligned attention for each
segmentation source (``sources``: name -> registered source, computed once per
Doc and kept in ``doc._.cws_segmentations``), pools the result to the Doc's
tokens and sets ``doc._.mwa_vectors``. Downstream ``ner`` / ``textcat`` models
use ``spacy-cws.MWAListener.v1`` as their tok2vec: in training they receive
the batch's vectors and the gradients of all listeners are summed before one
backward pass through the enricher.
"""
from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate
from thinc.types import Floats2d

from ..component_serialization import CfgAndModelSerialization
from .listener import VECTORS_ATTR, MWAListener
from .sources import SEGMENTATIONS_ATTR, add_segmentations, create_doc_tokens_source, get_segmentations

# torch (fork_safety, word_aligned_attention) is imported when an enricher is
# made, not with this module: spaCy imports every registered factory's module
# to load any pipeline, a segmentation pipeline on ONNX Runtime included.

# The CPU setting of configs/mwa_ner.cfg: spaCy's HashEmbedCNN over character
# tokens as the encoder. spacy-cws.MWACharEncoder.v1 (ours, from scratch)
# learns NER far more slowly (docs/experiments/mwa.md).
DEFAULT_MODEL_CONFIG = """
[model]
@architectures = "spacy-cws.MWAEnricher.v1"
width = 128
n_heads = 4
head_width = null
pooling = "key"
activation = true
fuse_encoder = true
lambda_init = 0.5
dropout = 0.1
attention_dropout = 0.0
max_length = 256
output_norm = true

[model.encoder]
@architectures = "spacy-cws.TokenVectorsToCharacters.v1"
width = 128

[model.encoder.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
width = 128
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = false
pretrained_vectors = null
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_MODEL_CONFIG)["model"]
# Empty: the Doc's own tokens (source name "doc_tokens"). Not a default entry,
# since spaCy merges a config's sources dict into the default one.
DEFAULT_SOURCES: Dict[str, Any] = {}


@Language.factory(
    "mwa_enricher",
    assigns=[f"doc._.{VECTORS_ATTR}", f"doc._.{SEGMENTATIONS_ATTR}"],
    default_config={"model": DEFAULT_MODEL, "sources": DEFAULT_SOURCES, "cache_size": 100000},
)
def make_mwa_enricher(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    # Any, not Callable: confection type-checks a dict of promises before resolving them.
    sources: Dict[str, Any],
    cache_size: int,
) -> "MWAEnricher":
    """Create an ``mwa_enricher``.

    model: Docs -> per Doc (len(doc), width) vectors, e.g. ``spacy-cws.MWAEnricher.v1``.
    sources: name -> segmentation source (``@cws_sources``), in a fixed order
        (the model has one output projection per source); empty: the Doc's
        own tokens, as the source "doc_tokens".
    cache_size: most texts whose text-only segmentations are remembered in
        memory, so the Docs of later training epochs are not segmented again
        (0: no cache; Docs read from a DocBin that stored them need none).
    """
    return MWAEnricher(nlp.vocab, model, name, sources=sources, cache_size=cache_size)


class MWAEnricher(CfgAndModelSerialization, TrainablePipe):
    """Word-aligned attention over characters, shared with downstream listeners."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "mwa_enricher",
        *,
        sources: Optional[Dict[str, Callable[[Doc], List[int]]]] = None,
        cache_size: int = 100000,
    ) -> None:
        if not sources:
            sources = {"doc_tokens": create_doc_tokens_source()}
        not_callable = [key for key, source in sources.items() if not callable(source)]
        if not_callable:
            raise ValueError(
                f"'{name}': the segmentation sources {not_callable} are not registered functions; "
                'write them as {"@cws_sources": "spacy-cws.jieba.v1"} blocks'
            )
        if cache_size < 0:
            raise ValueError(f"'{name}' needs cache_size >= 0, got {cache_size}")
        self.vocab = vocab
        self.model = model
        self.name = name
        self.sources = dict(sources)
        self.listener_map: Dict[str, List[MWAListener]] = {}
        self.cfg: Dict[str, Any] = {"sources": list(self.sources), "cache_size": cache_size}
        self._cache: Dict = {}
        self._awaiting_backprop = False
        self._deferred_sgd: Optional[Optimizer] = None
        from .. import fork_safety  # noqa: F401  (torch in forked nlp.pipe workers)
        from .word_aligned_attention import set_sources

        set_sources(self.model, self.cfg["sources"])

    # -- listeners (as spacy.pipeline.Tok2Vec) ------------------------------------------

    @property
    def listeners(self) -> List[MWAListener]:
        """The listener layers of all downstream components."""
        return [m for c in self.listening_components for m in self.listener_map[c]]

    @property
    def listening_components(self) -> List[str]:
        """The downstream components listening to this one."""
        return list(self.listener_map.keys())

    def add_listener(self, listener: MWAListener, component_name: str) -> None:
        self.listener_map.setdefault(component_name, [])
        if listener not in self.listener_map[component_name]:
            self.listener_map[component_name].append(listener)

    def remove_listener(self, listener: MWAListener, component_name: str) -> bool:
        if listener in self.listener_map.get(component_name, []):
            self.listener_map[component_name].remove(listener)
            if not self.listener_map[component_name]:
                del self.listener_map[component_name]
            return True
        return False

    def find_listeners(self, component) -> None:
        """Adopt the MWAListener layers of ``component`` whose upstream is '*' or this component."""
        names = ("*", self.name)
        if isinstance(getattr(component, "model", None), Model):
            for node in component.model.walk():
                if isinstance(node, MWAListener) and node.upstream_name in names:
                    self.add_listener(node, component.name)

    # -- segmentations ----------------------------------------------------------------

    def segment(self, docs: Iterable[Doc], references: Optional[Sequence[Doc]] = None) -> None:
        """Compute and store the missing segmentations of ``docs``; where a
        reference Doc with the same text already holds one (read from a DocBin)
        it is copied instead. RAISES SegmentationError naming a failing source."""
        docs = list(docs)
        if references is not None:
            for doc, reference in zip(docs, references):
                stored = get_segmentations(reference)
                if stored and reference.text == doc.text:
                    own = dict(get_segmentations(doc))
                    for name in self.sources:
                        if name in stored and name not in own and not getattr(self.sources[name], "uses_tokens", False):
                            own[name] = list(stored[name])
                    setattr(doc._, SEGMENTATIONS_ATTR, own)
        add_segmentations(docs, self.sources, cache=self._cache, cache_size=self.cfg["cache_size"])

    # -- inference ----------------------------------------------------------------------

    def predict(self, docs: Iterable[Doc]) -> List[Floats2d]:
        """Vectors (len(doc), width) per Doc. Stores the Docs' segmentations on
        them (a cache, not an annotation: the text is unchanged)."""
        docs = list(docs)
        self.segment(docs)
        if not any(len(doc) for doc in docs):
            width = self.model.get_dim("nO")
            return [self.model.ops.alloc2f(len(doc), width) for doc in docs]
        return self.model.predict(docs)

    def set_annotations(self, docs: Sequence[Doc], vectors: List[Floats2d]) -> None:
        for doc, doc_vectors in zip(docs, vectors):
            if doc_vectors.shape[0] != len(doc):
                raise ValueError(f"'{self.name}': {doc_vectors.shape[0]} vectors for a Doc of {len(doc)} tokens")
            setattr(doc._, VECTORS_ATTR, doc_vectors)

    # -- training -----------------------------------------------------------------------

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Compute the batch's vectors and hand them to the listeners; the last
        listener's backprop runs the backward pass with the summed gradients of
        all listeners and then the optimizer. The loss recorded is the squared
        norm of those gradients, as Tok2Vec's."""
        if losses is None:
            losses = {}
        examples = list(examples)
        validate_examples(examples, "MWAEnricher.update")
        docs = [eg.predicted for eg in examples]
        self.segment(docs, [eg.reference for eg in examples])
        losses.setdefault(self.name, 0.0)
        if not any(len(doc) for doc in docs):
            return losses
        set_dropout_rate(self.model, drop)
        vectors, backprop_vectors = self.model.begin_update(docs)
        d_vectors = [self.model.ops.alloc2f(*v.shape) for v in vectors]

        def accumulate_gradient(one_d_vectors: List[Floats2d]) -> List[Floats2d]:
            """Add one listener's gradient (all listeners but the last)."""
            for i, d in enumerate(one_d_vectors):
                d_vectors[i] += d
                losses[self.name] += float((d**2).sum())
            return [self.model.ops.alloc2f(*v.shape) for v in vectors]

        def backprop(one_d_vectors: List[Floats2d]) -> List:
            """Add the last listener's gradient, backpropagate and update."""
            accumulate_gradient(one_d_vectors)
            d_docs = backprop_vectors(d_vectors)
            self._awaiting_backprop = False
            optimizer = sgd if sgd is not None else self._deferred_sgd
            self._deferred_sgd = None
            if optimizer is not None:
                self.model.finish_update(optimizer)
            return d_docs

        batch_id = MWAListener.get_batch_id(docs)
        self._awaiting_backprop = bool(self.listeners)
        self._deferred_sgd = None
        for listener in self.listeners[:-1]:
            listener.receive(batch_id, vectors, accumulate_gradient)
        if self.listeners:
            self.listeners[-1].receive(batch_id, vectors, backprop)
        return losses

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the weights. nlp.update calls this right after ``update``,
        before the listeners have backpropagated; the step then waits for the
        last listener's backprop. (Applied at once, the torch weights would
        change under the batch's pending backward pass, and the batch's
        gradients would only be used one step late.)"""
        if self._awaiting_backprop:
            self._deferred_sgd = sgd
        else:
            self.model.finish_update(sgd)

    def get_loss(self, examples, scores) -> None:
        pass

    def initialize(self, get_examples: Callable[[], Iterable[Example]], *, nlp: Optional[Language] = None) -> None:
        """Initialize the model on up to 10 example Docs (their segmentations
        are computed here, so a missing or failing source fails now)."""
        validate_get_examples(get_examples, "MWAEnricher.initialize")
        docs = [eg.predicted for eg in islice(get_examples(), 10)]
        if not docs:
            raise ValueError(f"'{self.name}' needs at least one example to initialize")
        self.segment(docs)
        self.model.initialize(X=docs)

    def add_label(self, label):
        raise NotImplementedError

    # -- serialization ------------------------------------------------------------------

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        saved = list(cfg.get("sources", []))
        if saved != self.cfg["sources"]:
            raise ValueError(
                f"'{self.name}' was saved with the segmentation sources {saved}, but its config "
                f"names {self.cfg['sources']}: the model has one projection per source, in order, "
                "so the config's sources must be the saved ones."
            )

    def _ensure_built(self) -> None:
        from .word_aligned_attention import MWA_REF

        if not self.model.get_ref(MWA_REF).layers:
            self.model.initialize()

    def _load_model_msg(self, msg: dict) -> None:
        self._ensure_built()
        self.model.from_dict(msg)
