"""PFR paragraphs with their gold PKU tags, as Docs for spaCy's tagger."""
import re

import pytest
import spacy

from spacy_cws.corpora.catalog import PFR_HELD_OUT_DAYS, PFR_POS_DEV_DAYS
from spacy_cws.corpora.formats import CorpusFormatError, read_segmented
from spacy_cws.corpora.pfr_pos import read_pfr_tagged, split_of, tagged_doc
from spacy_cws.tagging.pku_upos import pku_upos

from ..pfr_tagged_sample import COMPOUND_LINE, COMPOUND_WORDS, DEV_DAYS, LINES, SPLIT_WORDS, TEST_DAYS, write_sample


def test_compound_names_keep_their_inner_words_and_tags(tmp_path):
    paragraphs = {p.line_no: p for p in read_pfr_tagged(write_sample(tmp_path))}
    compound = paragraphs[COMPOUND_LINE]
    assert list(zip(compound.words, compound.tags)) == COMPOUND_WORDS
    assert compound.day == "19980101"
    # The line numbers (a stray CR is a line) and the words are those of the segmentation reader.
    segmented = {s.line_no: s.words for s in read_segmented(write_sample(tmp_path), "pfr")}
    assert {n: p.words for n, p in paragraphs.items()} == segmented


def test_splits_by_date(tmp_path):
    words = dict.fromkeys(SPLIT_WORDS, 0)
    for paragraph in read_pfr_tagged(write_sample(tmp_path)):
        words[split_of(paragraph.day, DEV_DAYS, TEST_DAYS)] += len(paragraph.words)
    assert words == SPLIT_WORDS


def test_tagged_doc_keeps_the_text_and_sets_tag_and_pos(tmp_path):
    vocab = spacy.blank("zh").vocab
    paragraph = next(p for p in read_pfr_tagged(write_sample(tmp_path)) if p.line_no == COMPOUND_LINE)
    doc = tagged_doc(vocab, paragraph)
    assert doc.text == "国务院侨办发表新年贺词"
    assert [(t.text, t.tag_, t.pos_) for t in doc] == [
        ("国务院", "nt", "PROPN"), ("侨办", "j", "PROPN"), ("发表", "v", "VERB"), ("新年", "t", "NOUN"),
        ("贺词", "n", "NOUN"),
    ]


@pytest.mark.parametrize(
    "line, reason",
    [
        ("19980101-01-001-001/m  中国/ns  政府/xx  ", "tag(s) xx are not PKU part-of-speech tags"),
        ("中国/ns  政府/n  ", "expected a paragraph id"),
        ("19980101-01-001-001/m  中国/ns  政府/]nt  ", "is not of the form word/TAG"),
        ("19980101-01-001-001/m  中国  ", "is not of the form word/TAG"),
    ],
)
def test_bad_line_names_file_and_line(tmp_path, line, reason):
    path = write_sample(tmp_path, LINES[:2] + [line])
    with pytest.raises(CorpusFormatError, match=f"^{re.escape(str(path))}:3: .*{re.escape(reason)}"):
        list(read_pfr_tagged(path))


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="PFR file not found"):
        read_pfr_tagged(tmp_path / "199801.txt")


def test_real_pfr_every_tag_maps_and_the_words_are_the_segmented_ones(shared_data):
    path = shared_data / "pku_pfr1998" / "199801.txt"
    paragraphs = list(read_pfr_tagged(path))
    assert [p.words for p in paragraphs] == [s.words for s in read_segmented(path, "pfr")]
    assert {tag for p in paragraphs for tag in p.tags} <= pku_upos().keys()
    days = {p.day for p in paragraphs}
    assert set(PFR_HELD_OUT_DAYS) <= days and set(PFR_POS_DEV_DAYS) <= days
