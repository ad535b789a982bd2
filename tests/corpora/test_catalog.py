"""The corpus catalog: criteria, per-file formats and the training-text rules' preconditions."""
import pytest

from spacy_cws.corpora.catalog import CORPORA, CorpusFiles, get_corpus
from spacy_cws.corpora.formats import FORMATS


def test_criterion_is_the_corpus_name_unless_given():
    assert get_corpus("ctb6").criterion == "ctb6"
    assert get_corpus("pku_pfr").criterion == "pku" and get_corpus("msr_sample").criterion == "msr"


def test_each_file_has_a_known_format():
    for corpus in CORPORA.values():
        for field in ("train", "dev", "test_gold"):
            assert corpus.format_of(field) in FORMATS
    pfr = get_corpus("pku_pfr")
    assert [pfr.format_of(field) for field in ("train", "dev", "test_gold")] == ["pfr", "bies", "sighan"]


@pytest.mark.parametrize(
    "settings,message",
    [
        (dict(dev_in_train=True, sentences=True), "dev_in_train needs a dev file and sentences=True"),
        (dict(dev_in_train=True, dev="dev.txt"), "dev_in_train needs a dev file and sentences=True"),
        (dict(split_unlisted=True), "split_unlisted needs the official train_words list"),
    ],
)
def test_rules_without_what_they_need_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        CorpusFiles("x", "sighan", train="train.txt", test_gold="test.txt", **settings)
