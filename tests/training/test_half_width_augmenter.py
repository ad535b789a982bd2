"""``spacy-cws.half_width_alphanumerics.v1`` on PFR-style tagged paragraphs: words with full-width Latin letters
or digits become ASCII with their tags, punctuation stays full-width, and the share follows ``level``."""
import random

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

WORDS = ["１９９７年", "，", "ＳＯＤ", "增长", "３．５％", "。"]
TAGS = ["t", "w", "nx", "v", "m", "w"]


def _example(nlp, words=WORDS, tags=TAGS):
    reference = Doc(nlp.vocab, words=words, spaces=[False] * len(words), tags=tags)
    return Example(Doc(nlp.vocab, words=words, spaces=[False] * len(words)), reference)


def test_the_variant_writes_letters_and_digits_as_ascii_with_the_same_tags():
    nlp = spacy.blank("zh")
    augment = registry.augmenters.get("spacy-cws.half_width_alphanumerics.v1")(level=1.0)
    (variant,) = augment(nlp, _example(nlp))
    assert [(t.text, t.tag_) for t in variant.reference] == [
        ("1997年", "t"), ("，", "w"), ("SOD", "nx"), ("增长", "v"), ("3.5%", "m"), ("。", "w")
    ]
    assert [t.text for t in variant.predicted] == [t.text for t in variant.reference]
    assert variant.predicted.text == "1997年，SOD增长3.5%。"
    plain = _example(nlp, ["国务院", "侨办", "，"], ["nt", "j", "w"])
    assert next(augment(nlp, plain)) is plain  # nothing to vary


def test_level_is_the_share_of_examples_varied():
    nlp = spacy.blank("zh")
    augment = registry.augmenters.get("spacy-cws.half_width_alphanumerics.v1")(level=0.3)
    random.seed(0)
    varied = sum(next(augment(nlp, _example(nlp))).reference[0].text == "1997年" for _ in range(2000))
    assert 500 < varied < 700
    with pytest.raises(ValueError, match="in \\[0, 1\\]"):
        registry.augmenters.get("spacy-cws.half_width_alphanumerics.v1")(level=1.5)
