"""A tokenizer that runs a trained segmenter and builds each Doc from words in one step.

The other shape of the same model: instead of a character pretokenizer plus
the ``gd_segmenter`` component (which merges tokens with the retokenizer),
this tokenizer predicts the words and creates the Doc directly from words and
spaces (``spacy.util.get_words_and_spaces``), like spaCy's ChineseTokenizer.
``nlp.tokenizer.pipe(texts)`` segments texts in batches.
"""
import inspect
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, TypeVar

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example, validate_examples
from spacy.util import DummyTokenizer, load_model_from_config, minibatch, registry
from spacy.vocab import Vocab
from thinc.api import Model

from .component import Segmenter
from .doc_from_spans import doc_from_spans
from .factory import make_gd_segmenter
from .moved_settings import upgrade_config
from .scorer import score_segmentation
from .settings import default_settings

F = TypeVar("F", bound=Callable)


class SegmenterTokenizer(DummyTokenizer):
    """Segments raw text into a Doc of words with a trained :class:`Segmenter`.

    batch_size: texts per model batch in :meth:`pipe`.
    """

    def __init__(self, vocab: Vocab, segmenter: Segmenter, batch_size: int = 256):
        self.vocab = vocab
        self.segmenter = segmenter
        self.batch_size = batch_size

    def __call__(self, text: str) -> Doc:
        if not isinstance(text, str):
            raise TypeError(f"SegmenterTokenizer takes a str, got {type(text).__name__}")
        return self._make_doc(text, self.segmenter.segment_texts([text])[0])

    def pipe(self, texts: Iterable[str], batch_size: Optional[int] = None) -> Iterator[Doc]:
        """Segment texts in batches of ``batch_size`` (default: the tokenizer's)
        texts, each batch one run of the model. spaCy's ``nlp.pipe`` calls the
        tokenizer text by text; call this for throughput.

        YIELDS: per text its Doc of words, in order.
        """
        for batch in minibatch(texts, size=batch_size or self.batch_size):
            for text, spans in zip(batch, self.segmenter.segment_texts(batch)):
                yield self._make_doc(text, spans)

    def _make_doc(self, text: str, spans) -> Doc:
        return doc_from_spans(self.vocab, text, spans)

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, Any]:
        """The segmentation scores (token_acc, token_p, token_r, token_f), as the
        ``gd_segmenter`` component reports them: ``nlp.evaluate`` calls this.

        RAISES TypeError: if ``examples`` are not Examples (spaCy's validate_examples).
        """
        validate_examples(examples, "SegmenterTokenizer.score")
        return score_segmentation(examples)

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return self.segmenter.to_bytes(exclude=exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "SegmenterTokenizer":
        self.segmenter.from_bytes(bytes_data, exclude=exclude)
        return self

    def to_disk(self, path, *, exclude: Iterable[str] = tuple()) -> None:
        self.segmenter.to_disk(path, exclude=exclude)

    def from_disk(self, path, *, exclude: Iterable[str] = tuple()) -> "SegmenterTokenizer":
        self.segmenter.from_disk(path, exclude=exclude)
        return self


def takes_factory_settings(func: F) -> F:
    """Give ``func`` (``model``, ``batch_size``, ``**settings``) the keyword
    parameters of the ``gd_segmenter`` factory but model and scorer, with the
    defaults of its default config. spaCy's config system reads a registered
    function's parameters from its signature, and the tokenizer's block holds
    the component's settings (segmenter_as_tokenizer), in the configs of
    earlier pipelines the moved ones too (moved_settings.py); the tokenizer
    keeps its registered name, so it takes them all."""
    defaults = default_settings()
    factory = inspect.signature(make_gd_segmenter).parameters.values()
    settings = [
        parameter.replace(default=defaults.get(parameter.name, parameter.default))
        for parameter in factory
        if parameter.kind is parameter.KEYWORD_ONLY and parameter.name not in ("model", "scorer")
    ]
    signature = inspect.signature(func)
    own = [parameter for parameter in signature.parameters.values() if parameter.kind is not parameter.VAR_KEYWORD]
    func.__signature__ = signature.replace(parameters=own + settings)
    return func


@registry.tokenizers("spacy-cws.SegmenterTokenizer.v1")
@takes_factory_settings
def create_segmenter_tokenizer(
    model: Model, batch_size: int = 256, **settings
) -> Callable[[Language], SegmenterTokenizer]:
    """A tokenizer that segments with ``model``, a trained segmentation model.
    settings: the keyword arguments of the ``gd_segmenter`` factory
    (make_gd_segmenter) but model and scorer; batch_size: texts per batch in ``pipe``."""

    def make_tokenizer(nlp: Language) -> SegmenterTokenizer:
        segmenter = make_gd_segmenter(nlp, "tokenizer", model=model, scorer=None, **{**default_settings(), **settings})
        return SegmenterTokenizer(nlp.vocab, segmenter, batch_size)

    return make_tokenizer


def segmenter_as_tokenizer(nlp: Language, component: str = "gd_segmenter") -> Language:
    """A new pipeline whose tokenizer runs ``nlp``'s trained segmenter component.

    The component is removed from the new pipeline; the other components are
    kept with their trained weights.
    RAISES ValueError: if ``nlp`` has no component named ``component``.
    """
    if component not in nlp.pipe_names:
        raise ValueError(f"The pipeline has no component '{component}' (it has: {', '.join(nlp.pipe_names)})")
    config = nlp.config.copy()
    settings = dict(config["components"].pop(component))
    for key in ("factory", "scorer"):
        settings.pop(key, None)
    upgrade_config(settings, nlp.get_pipe(component).cfg["unbroken_patterns"])  # its bytes carry the rest
    config["nlp"]["tokenizer"] = {"@tokenizers": "spacy-cws.SegmenterTokenizer.v1", **settings}
    config["nlp"]["pipeline"] = [name for name in config["nlp"]["pipeline"] if name != component]
    config["training"]["score_weights"] = {
        key: value for key, value in config["training"]["score_weights"].items() if not key.startswith("token_")
    } or {"token_f": 1.0}
    converted = load_model_from_config(config, auto_fill=True, validate=True)
    converted.tokenizer.from_bytes(nlp.get_pipe(component).to_bytes())
    for name, proc in nlp.pipeline:
        if name != component:
            converted.get_pipe(name).from_bytes(proc.to_bytes())
    return converted
