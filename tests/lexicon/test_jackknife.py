"""The jackknifed training-words lexicon's miss rate, against a brute force on CTB6 training sentences."""
from itertools import islice

import pytest
import spacy
from spacy.tokens import Doc

from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.lexicon.jackknife import jackknife_miss_rate, oov_rate, training_word_folds
from spacy_cws.lexicon.match_features import EVERY_FOLD, text_fold


@pytest.fixture(scope="module")
def ctb6_docs(shared_data):
    vocab = spacy.blank("zh").vocab
    sentences = islice(read_segmented(get_corpus("ctb6").path(shared_data, "train")), 2000)
    return [Doc(vocab, words=s.words, spaces=[False] * len(s.words)) for s in sentences]


def brute_force_miss_rate(docs, n_folds):
    """Each sentence against a lexicon rebuilt from the sentences of the other folds."""
    folds = [text_fold(doc.text, n_folds) for doc in docs]
    missed = total = 0
    for fold in set(folds):
        seen = {t.text for doc, f in zip(docs, folds) if f != fold for t in doc}
        for doc, f in zip(docs, folds):
            if f == fold:
                total += len(doc)
                missed += sum(t.text not in seen for t in doc)
    return missed / total


@pytest.mark.parametrize("n_folds", [2, 3, 10])
def test_miss_rate_equals_a_lexicon_rebuilt_per_fold(ctb6_docs, n_folds):
    assert jackknife_miss_rate(ctb6_docs, n_folds) == pytest.approx(brute_force_miss_rate(ctb6_docs, n_folds))


def test_fewer_folds_miss_more_and_the_ends(ctb6_docs):
    rates = [jackknife_miss_rate(ctb6_docs, n) for n in (2, 5, 10)]
    assert rates[0] > rates[1] > rates[2] > 0
    assert jackknife_miss_rate(ctb6_docs, 0) == 0.0
    assert jackknife_miss_rate(ctb6_docs, 1) == 1.0


def test_folds_are_bit_masks_and_zero_folds_is_every_fold(ctb6_docs):
    masks = training_word_folds(ctb6_docs[:50], 4)
    first = ctb6_docs[0]
    assert masks[first[0].text] & (1 << text_fold(first.text, 4))
    assert set(training_word_folds(ctb6_docs[:50], 0).values()) == {EVERY_FOLD}
    with pytest.raises(ValueError, match="n_folds"):
        training_word_folds(ctb6_docs, -1)


def test_oov_rate_of_the_training_sentences_themselves(ctb6_docs):
    words = {t.text for doc in ctb6_docs[:1000] for t in doc}
    assert oov_rate(ctb6_docs[:1000], words) == 0.0
    held_out = oov_rate(ctb6_docs[1000:], words)
    tokens = [t.text for doc in ctb6_docs[1000:] for t in doc]
    assert held_out == pytest.approx(sum(word not in words for word in tokens) / len(tokens))
    assert 0 < held_out < 0.5
    with pytest.raises(ValueError, match="no tokens"):
        oov_rate([], words)
