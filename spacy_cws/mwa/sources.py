"""Segmentation sources for the MWA enricher, and the Doc extension holding their output.

A source turns a Doc into word lengths in characters that cover ``doc.text``
exactly: every character, whitespace included, is in exactly one word (a run of
whitespace is a word of its own, whatever the segmenter did with it). Sources
are registered functions in the custom registry ``cws_sources`` that this
module adds to spaCy's (``registry.create``; entry-point group
``thinc_cws_sources``; in configs ``@cws_sources``) and return a
``SegmentationSource``.

Segmentations are computed once per Doc and kept, as plain lists of ints per
source name, in ``doc._.cws_segmentations`` (in ``doc.user_data``, so DocBin
with ``store_user_data=True`` keeps them).
"""
import importlib
import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence

from spacy.tokens import Doc
from spacy.util import registry

SEGMENTATIONS_ATTR = "cws_segmentations"
if not Doc.has_extension(SEGMENTATIONS_ATTR):
    Doc.set_extension(SEGMENTATIONS_ATTR, default=None)

# Configs name sources with @cws_sources = "spacy-cws.jieba.v1".
if not hasattr(registry, "cws_sources"):
    registry.create("cws_sources", entry_points=True)
sources = registry.cws_sources


class SegmentationError(ValueError):
    """A source's output does not cover its text, or the source failed."""


class SegmentationSource:
    """Base of the sources: ``segment(text)`` returns words whose concatenation,
    whitespace aside, is ``text``; ``__call__(doc)`` returns word lengths that
    cover ``doc.text``. ``uses_tokens``: the result depends on the Doc's tokens,
    not only on its text (such results are never cached by text)."""

    uses_tokens = False
    label = "source"
    # Attributes holding a loaded segmenter: loaded on first use, not pickled.
    _lazy = ("_segmenter",)

    def __getstate__(self):
        state = dict(self.__dict__)
        for name in self._lazy:
            state[name] = None
        return state

    def segment(self, text: str) -> Sequence[str]:
        raise NotImplementedError

    def __call__(self, doc: Doc) -> List[int]:
        return align_words(doc.text, self.segment(doc.text), self.label)


def align_words(text: str, words: Iterable[str], source: str = "source") -> List[int]:
    """Word lengths covering ``text`` exactly from a segmenter's ``words``.

    Whitespace-only words are dropped and every run of whitespace in ``text``
    becomes a word of its own, so segmenters that drop, merge or keep spaces
    all give the same cover. RAISES SegmentationError where a word is not the
    text at its place (a segmenter that changes or drops characters).
    """
    lengths: List[int] = []
    position = 0
    for word in words:
        if not word or word.isspace():
            continue
        position = _append_whitespace(text, position, lengths)
        if not text.startswith(word, position):
            raise SegmentationError(
                f"Segmentation source '{source}' returned the word {word!r} where the text has "
                f"{text[position:position + len(word)]!r} (offset {position}): a source must keep "
                "every character of the text unchanged and in order."
            )
        lengths.append(len(word))
        position += len(word)
    position = _append_whitespace(text, position, lengths)
    if position != len(text):
        raise SegmentationError(
            f"Segmentation source '{source}' dropped the text from offset {position}: "
            f"{text[position:position + 20]!r}..."
        )
    return lengths


def _append_whitespace(text: str, position: int, lengths: List[int]) -> int:
    end = position
    while end < len(text) and text[end].isspace():
        end += 1
    if end > position:
        lengths.append(end - position)
    return end


def validate_lengths(lengths: Sequence[int], text: str, source: str) -> List[int]:
    """Check that ``lengths`` are positive ints summing to len(text). RETURNS them as a list of int."""
    lengths = [int(length) for length in lengths]
    if any(length < 1 for length in lengths) or sum(lengths) != len(text):
        raise SegmentationError(
            f"Segmentation source '{source}' gave word lengths summing to {sum(lengths)} "
            f"(min {min(lengths, default=0)}) for a text of {len(text)} characters: "
            "word lengths must be >= 1 and cover the text exactly."
        )
    return lengths


def get_segmentations(doc: Doc) -> Dict[str, List[int]]:
    """The stored segmentations of ``doc`` (name -> list of word lengths), {} if none
    (a DocBin gives them back as tuples: they are returned as lists)."""
    stored = getattr(doc._, SEGMENTATIONS_ATTR) or {}
    return {name: list(lengths) for name, lengths in stored.items()}


def add_segmentations(
    docs: Iterable[Doc],
    named_sources: Dict[str, Callable[[Doc], List[int]]],
    cache: Optional[Dict] = None,
    cache_size: int = 0,
) -> None:
    """Compute the segmentations of ``docs`` that are missing or stale (not
    covering the Doc's text) and store them in ``doc._.cws_segmentations``.

    cache: optional dict (source name, text) -> lengths for sources that do not
        use the Doc's tokens, so a text seen again (the next training epoch
        makes new Docs) is not segmented again; it holds at most cache_size texts.
    RAISES SegmentationError naming the source when a source fails or gives a bad cover.
    """
    for doc in docs:
        text = doc.text
        stored = dict(get_segmentations(doc))
        changed = False
        for name, source in named_sources.items():
            lengths = stored.get(name)
            if lengths is not None and sum(lengths) == len(text):
                continue
            key = (name, text)
            uses_tokens = getattr(source, "uses_tokens", False)
            if cache is not None and not uses_tokens and key in cache:
                stored[name] = cache[key]
            else:
                try:
                    lengths = source(doc)
                except SegmentationError:
                    raise
                except Exception as err:
                    raise SegmentationError(
                        f"Segmentation source '{name}' failed on a text of {len(text)} characters "
                        f"({text[:30]!r}...): {type(err).__name__}: {err}"
                    ) from err
                stored[name] = validate_lengths(lengths, text, name)
                if cache is not None and not uses_tokens and cache_size > 0:
                    if len(cache) >= cache_size:
                        cache.pop(next(iter(cache)))
                    cache[key] = stored[name]
            changed = True
        if changed:
            setattr(doc._, SEGMENTATIONS_ATTR, stored)


def require_package(module: str, package: str, source: str):
    """Import an optional segmenter. RAISES ImportError naming the pip package to install."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(
            f"The segmentation source '{source}' needs the package '{package}', which is not "
            f"installed: pip install {package} (or pip install spacy-cws[mwa] for all sources)."
        ) from err


# -- built-in sources ------------------------------------------------------------------


class DocTokensSource(SegmentationSource):
    """The Doc's own tokens (e.g. words set by ``gd_segmenter`` earlier in the pipeline)."""

    uses_tokens = True
    label = "doc_tokens"

    def __call__(self, doc: Doc) -> List[int]:
        lengths: List[int] = []
        position = 0
        for token in doc:
            if token.idx > position:  # whitespace before the token
                lengths.append(token.idx - position)
            lengths.append(len(token.text))
            position = token.idx + len(token.text)
        if position < len(doc.text):
            lengths.append(len(doc.text) - position)
        # spaCy whitespace tokens next to trailing whitespace: merge touching whitespace words.
        return _merge_whitespace(doc.text, lengths)


def _merge_whitespace(text: str, lengths: List[int]) -> List[int]:
    merged: List[int] = []
    position = 0
    previous_space = False
    for length in lengths:
        space = text[position : position + length].isspace()
        if space and previous_space:
            merged[-1] += length
        else:
            merged.append(length)
        previous_space = space
        position += length
    return merged


@sources("spacy-cws.doc_tokens.v1")
def create_doc_tokens_source() -> SegmentationSource:
    """The Doc's tokens as words (whitespace runs are words of their own)."""
    return DocTokensSource()


# A run of whitespace, or one other character.
_CHARACTER_OR_SPACE_RUN = re.compile(r"\s+|\S")


class CharactersSource(SegmentationSource):
    """Every character its own word (whitespace runs kept whole): no word information.
    Word pooling is then the identity, so an enricher with this source alone is the
    control that separates the extra attention from the words."""

    label = "characters"

    def __call__(self, doc: Doc) -> List[int]:
        return [len(piece) for piece in _CHARACTER_OR_SPACE_RUN.findall(doc.text)]


@sources("spacy-cws.characters.v1")
def create_characters_source() -> SegmentationSource:
    """Single characters as words: the no-words control of the MWA experiments."""
    return CharactersSource()


class JiebaSource(SegmentationSource):
    label = "jieba"

    def __init__(self, hmm: bool, dictionary: Optional[str]):
        require_package("jieba", "jieba", self.label)
        if dictionary is not None and not Path(dictionary).exists():
            raise FileNotFoundError(f"jieba dictionary not found: {dictionary}")
        self.hmm = hmm
        self.dictionary = dictionary
        self._segmenter = None

    def segment(self, text: str) -> Sequence[str]:
        if self._segmenter is None:
            import jieba

            self._segmenter = jieba.Tokenizer(self.dictionary) if self.dictionary else jieba.Tokenizer()
        return list(self._segmenter.cut(text, HMM=self.hmm))


@sources("spacy-cws.jieba.v1")
def create_jieba_source(hmm: bool = True, dictionary: Optional[str] = None) -> SegmentationSource:
    """jieba (pip install jieba); dictionary: a local dictionary file (None: jieba's own)."""
    return JiebaSource(hmm, dictionary)


class ThulacSource(SegmentationSource):
    label = "thulac"

    def __init__(self, model_path: Optional[str]):
        require_package("thulac", "thulac", self.label)
        if model_path is not None and not Path(model_path).exists():
            raise FileNotFoundError(f"thulac model folder not found: {model_path}")
        self.model_path = model_path
        self._segmenter = None

    def segment(self, text: str) -> Sequence[str]:
        if self._segmenter is None:  # loading takes seconds: only when first needed
            import thulac

            self._segmenter = thulac.thulac(seg_only=True, model_path=self.model_path)
        return [word for word, _ in self._segmenter.cut(text, text=False)]


@sources("spacy-cws.thulac.v1")
def create_thulac_source(model_path: Optional[str] = None) -> SegmentationSource:
    """THULAC (pip install thulac); model_path: a local model folder (None: the package's)."""
    return ThulacSource(model_path)


class PkusegSource(SegmentationSource):
    label = "pkuseg"

    def __init__(self, model: Optional[str], user_dict: Optional[str]):
        require_package("spacy_pkuseg", "spacy-pkuseg", self.label)
        if model is None or not Path(model).exists():
            raise FileNotFoundError(
                f"The 'pkuseg' segmentation source needs a local spacy-pkuseg model folder; got {model!r}. "
                "Set model to a folder with features.msgpack and weights.npz (nothing is downloaded)."
            )
        # An absolute path is never taken for one of pkuseg's downloadable model names.
        self.model = str(Path(model).resolve())
        self.user_dict = user_dict
        self._segmenter = None

    def segment(self, text: str) -> Sequence[str]:
        if self._segmenter is None:
            import spacy_pkuseg

            self._segmenter = spacy_pkuseg.pkuseg(model_name=self.model, user_dict=self.user_dict or "default")
        return self._segmenter.cut(text)


@sources("spacy-cws.pkuseg.v1")
def create_pkuseg_source(model: Optional[str] = None, user_dict: Optional[str] = None) -> SegmentationSource:
    """spacy-pkuseg (pip install spacy-pkuseg) with a local model folder; user_dict:
    a dictionary file (None: the package's bundled default dictionary)."""
    return PkusegSource(model, user_dict)


class PipelineSource(SegmentationSource):
    """The tokens of a saved spaCy pipeline (e.g. a trained ``gd_segmenter``) run on the text."""

    label = "pipeline"
    _lazy = ("_nlp",)

    def __init__(self, path: Optional[str]):
        if path is None or not Path(path).exists():
            raise FileNotFoundError(f"The 'pipeline' segmentation source needs a saved pipeline folder; got {path!r}")
        self.path = str(path)
        self._nlp = None

    def segment(self, text: str) -> Sequence[str]:
        if self._nlp is None:
            import spacy

            self._nlp = spacy.load(self.path)
        return [token.text for token in self._nlp(text)]


@sources("spacy-cws.pipeline_tokens.v1")
def create_pipeline_source(path: Optional[str] = None) -> SegmentationSource:
    """Words from a saved spaCy pipeline at ``path`` (such as one with ``gd_segmenter``),
    so a character-tokenized Doc (for NER) can still use a trained segmenter's words."""
    return PipelineSource(path)
