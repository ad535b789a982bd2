"""Words with their part-of-speech tags, for pipelines that tag.

A pipeline tags when one of its components assigns ``token.tag`` (spaCy's
``tagger``, trained on PFR's PKU tags: docs/guides/part-of-speech.md). Its
words are then read off the Docs of spaCy's nlp.pipe, each with its
``token.tag_``; whitespace tokens are not words and carry no tag.
"""
from typing import Iterable, Iterator, List, NamedTuple

import numpy
from spacy.language import Language
from spacy.tokens import Doc


class TaggedText(NamedTuple):
    """A text, its words and their tags.

    words: int64 (n_words, 2) sorted [start, end) character offsets of every
        non-whitespace word of ``text``.
    tags: the words' ``token.tag_``, one string per word.
    """

    text: str
    words: numpy.ndarray
    tags: List[str]


def pipeline_tags(nlp: Language) -> bool:
    """Whether a component of ``nlp`` assigns ``token.tag`` (spaCy's pipe meta)."""
    return any("token.tag" in nlp.get_pipe_meta(name).assigns for name in nlp.pipe_names)


def writes_tags(nlp: Language, output_format: str, tags: bool) -> bool:
    """Whether a run's output lines hold tags: the pipeline tags, and the
    output is jsonl (which always adds them) or text with ``tags`` asked for."""
    return pipeline_tags(nlp) and (tags or output_format == "jsonl")


def tagged_words_of_doc(doc: Doc) -> TaggedText:
    """The Doc's text, the offsets of its non-whitespace tokens and their tags."""
    words = [token for token in doc if not token.is_space]
    offsets = numpy.asarray([(token.idx, token.idx + len(token)) for token in words], dtype=numpy.int64)
    return TaggedText(doc.text, offsets.reshape(-1, 2), [token.tag_ for token in words])


def tagged_lines(nlp: Language, texts: Iterable[str], batch_size: int, n_process: int = 1) -> Iterator[TaggedText]:
    """Per text, lazily and in order, its words and tags by nlp.pipe, in
    batches of ``batch_size`` texts and ``n_process`` processes."""
    return map(tagged_words_of_doc, nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
