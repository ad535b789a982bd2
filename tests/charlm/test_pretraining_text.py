"""The character LM's text (charlm/pretraining_text.py) and vocabulary (charlm/character_vocab.py) on ZX."""
import pytest
import spacy
from spacy.tokens import DocBin

from spacy_cws.charlm.character_vocab import SPECIAL_TOKENS, character_vocab
from spacy_cws.charlm.pretraining_text import collect_pretraining_text, is_heldout

from ..adaptation.conftest import zx_raw_lines


def write_docbin(path, texts):
    nlp = spacy.blank("zh")
    DocBin(docs=[nlp.make_doc(text) for text in texts]).to_disk(path)
    return path


@pytest.fixture(scope="module")
def corpora(shared_data, tmp_path_factory):
    """Two corpora of ZX training text sharing 100 sentences (lines 0-399 and 300-699)."""
    lines = zx_raw_lines(shared_data, 700)
    folder = tmp_path_factory.mktemp("charlm")
    return write_docbin(folder / "a.spacy", lines[:400]), write_docbin(folder / "b.spacy", lines[300:]), lines


def test_texts_are_deduplicated_across_corpora_and_counted_per_source(corpora):
    first, second, lines = corpora
    text = collect_pretraining_text([first, second], heldout_share=0.1)
    distinct = len(set(lines))
    assert len(text.train) + len(text.heldout) == distinct
    assert text.sources[str(first)]["texts"] == 400 and text.sources[str(second)]["texts"] == 400
    repeated_in_first = 400 - len(set(lines[:400]))
    assert text.sources[str(first)]["duplicates"] == repeated_in_first
    assert text.sources[str(second)]["duplicates"] >= 100  # the shared sentences come from the first corpus
    assert text.n_characters == sum(len(line) for line in set(lines))
    assert 0.03 * distinct < len(text.heldout) < 0.2 * distinct


def test_dev_and_test_texts_are_dropped_wherever_they_occur(corpora, tmp_path):
    first, second, lines = corpora
    test_split = write_docbin(tmp_path / "test.spacy", lines[350:360] + ["不在语料里的一句话。"])
    text = collect_pretraining_text([first, second], heldout_share=0.1, exclude=[test_split])
    kept = set(text.train) | set(text.heldout)
    assert not kept & set(lines[350:360]) and kept == set(lines) - set(lines[350:360])
    assert text.sources[str(first)]["excluded"] == sum(line in set(lines[350:360]) for line in lines[:400])


def test_the_held_out_texts_do_not_depend_on_the_order_of_the_corpora(corpora):
    first, second, _ = corpora
    forward = collect_pretraining_text([first, second], heldout_share=0.1)
    backward = collect_pretraining_text([second, first], heldout_share=0.1)
    assert set(forward.heldout) == set(backward.heldout) and not set(forward.heldout) & set(forward.train)
    assert all(is_heldout(text, 0.1) for text in forward.heldout)


def test_a_missing_corpus_and_a_bad_share_are_refused(corpora, tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.spacy not found: prepare or convert the corpus first"):
        collect_pretraining_text([tmp_path / "missing.spacy"], 0.01)
    with pytest.raises(ValueError, match=r"held-out share is in \[0, 1\)"):
        collect_pretraining_text([corpora[0]], 1.0)


def test_the_vocabulary_reads_every_character_and_latin_words_piece_by_piece():
    texts = ["苹果发布iPhone 15，售价5999元。", "苹果的价格。"]
    vocab = character_vocab(texts, min_count=1)
    assert vocab[:5] == SPECIAL_TOKENS and vocab[5] == "9"  # the most frequent first (5999)
    assert vocab.index("苹") < vocab.index("售")  # twice before once
    assert " " not in vocab and "售" in vocab and "##P" in vocab and "##9" in vocab and "##，" not in vocab
    assert "售" not in character_vocab(texts, min_count=2)
    with pytest.raises(ValueError, match="min_count is at least 1"):
        character_vocab(texts, 0)
