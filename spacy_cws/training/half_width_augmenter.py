"""``spacy-cws.half_width_alphanumerics.v1``: training examples with Latin letters and digits as ASCII.

People's Daily 1998 (PFR), the part-of-speech tagger's training text, writes
Latin words and digits full-width (ＳＯＤ, １９９８年), where most Chinese text
writes them half-width: a tagger trained on PFR as written tags iPhone as
punctuation, and gets 72% of such words right (docs/guides/part-of-speech.md).
As spaCy's lower-casing augmenter does for case, this gives a share of the
examples as their half-width variant: every word that holds a full-width
Latin letter or digit in ASCII (features/character_view.py
half_width_alphanumerics), full-width punctuation (，) as it is, the
annotations unchanged.
"""
import random
from functools import partial
from typing import Callable, Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from ..features.character_view import half_width_alphanumerics


@registry.augmenters("spacy-cws.half_width_alphanumerics.v1")
def create_half_width_augmenter(level: float) -> Callable[[Language, Example], Iterator[Example]]:
    """level: the share of examples given as their half-width variant, in [0, 1].
    RAISES ValueError: for a level outside [0, 1]."""
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"level is the share of examples to vary, in [0, 1]; got {level}")
    return partial(half_width_augmenter, level=level)


def half_width_augmenter(nlp: Language, example: Example, *, level: float) -> Iterator[Example]:
    if random.random() >= level:
        yield example
    else:
        yield half_width_variant(nlp, example)


def half_width_variant(nlp: Language, example: Example) -> Example:
    """``example`` with its reference words (and its predicted tokens, where
    they are those words: gold_preproc) half-width; itself if none changes."""
    words = [half_width_alphanumerics(token.text) for token in example.reference]
    if words == [token.text for token in example.reference]:
        return example
    annotations = example.to_dict()
    annotations["token_annotation"]["ORTH"] = words
    spaces = [bool(token.whitespace_) for token in example.reference]
    text = "".join(word + (" " if space else "") for word, space in zip(words, spaces))
    gold_tokens = [token.text for token in example.predicted] == [token.text for token in example.reference]
    predicted = Doc(nlp.vocab, words=words, spaces=spaces) if gold_tokens else nlp.make_doc(text)
    return Example.from_dict(predicted, annotations)
