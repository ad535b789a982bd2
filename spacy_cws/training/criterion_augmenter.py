"""``spacy-cws.criterion_from_reference.v1``: give each predicted Doc its reference's criterion.

spaCy's Corpus makes an Example's predicted Doc from the reference text alone,
so ``doc._.cws_criterion`` (stored on the reference Docs by conversion) is lost.
A multi-criteria segmenter reads the reference's criterion in training, but
``nlp.evaluate`` (the dev scores of ``spacy train``) runs the pipeline on the
predicted Docs: with this augmenter on ``[corpora.dev]`` each dev sentence is
segmented by its own corpus's criterion instead of the default one.
"""
from typing import Callable, Iterator

from spacy.language import Language
from spacy.training import Example
from spacy.util import registry


@registry.augmenters("spacy-cws.criterion_from_reference.v1")
def create_criterion_from_reference() -> Callable[[Language, Example], Iterator[Example]]:
    def copy_criterion(nlp: Language, example: Example) -> Iterator[Example]:
        example.predicted._.cws_criterion = example.reference._.cws_criterion
        yield example

    return copy_criterion
