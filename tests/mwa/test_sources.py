"""Segmentation sources: exact cover of the text, storage on the Doc, errors."""
import sys

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.util import registry

from spacy_cws.mwa.sources import (
    SegmentationError,
    add_segmentations,
    align_words,
    get_segmentations,
    sources,
)

from .mwa_data import MIXED_TEXTS, NER_SENTENCES, char_pipeline

TEXTS = MIXED_TEXTS + [text for text, _ in NER_SENTENCES] + ["", " ", "\n\n"]


def words_of(text, lengths):
    out, position = [], 0
    for length in lengths:
        out.append(text[position : position + length])
        position += length
    return out


def assert_covers(text, lengths):
    assert all(length >= 1 for length in lengths)
    assert "".join(words_of(text, lengths)) == text
    # Whitespace never shares a word with other characters.
    assert all(word.isspace() or not any(c.isspace() for c in word) for word in words_of(text, lengths))


def test_align_words_keeps_whitespace_as_words():
    text = "他在 2009年买了  iPhone"
    lengths = align_words(text, ["他", "在", "2009年", "买", "了", " ", "iPhone"])
    assert words_of(text, lengths) == ["他", "在", " ", "2009年", "买", "了", "  ", "iPhone"]


def test_align_words_rejects_changed_or_dropped_characters():
    with pytest.raises(SegmentationError, match="'thulac'.*keep every character"):
        align_words("中國人", ["中国", "人"], "thulac")
    with pytest.raises(SegmentationError, match="dropped"):
        align_words("中国人。", ["中国", "人"], "jieba")


BUILT_IN = ("spacy-cws.doc_tokens.v1", "spacy-cws.characters.v1")


@pytest.mark.parametrize("name", ["spacy-cws.jieba.v1", "spacy-cws.thulac.v1", *BUILT_IN])
def test_sources_cover_the_text_exactly(name):
    if name not in BUILT_IN:
        pytest.importorskip(name.split(".")[1])
    source = registry.get("cws_sources", name)()
    nlp = char_pipeline()
    for text in TEXTS:
        assert_covers(text, source(nlp.make_doc(text)))


def test_doc_tokens_source_follows_the_tokens():
    nlp = spacy.blank("zh")
    doc = Doc(nlp.vocab, words=["北京", "西山", "森林公园", " ", "OK"], spaces=[False, False, True, False, True])
    lengths = sources.get("spacy-cws.doc_tokens.v1")()(doc)
    assert words_of(doc.text, lengths) == ["北京", "西山", "森林公园", "  ", "OK", " "]


def test_characters_source_makes_every_character_a_word():
    nlp = char_pipeline()
    text = "他在 2009年买了\t\n iPhone。"
    words = words_of(text, sources.get("spacy-cws.characters.v1")()(nlp.make_doc(text)))
    assert words == ["他", "在", " ", "2", "0", "0", "9", "年", "买", "了", "\t\n ", "i", "P", "h", "o", "n", "e", "。"]


def test_segmentations_are_stored_once_and_survive_docbin():
    calls = []

    def counting(doc):
        calls.append(doc.text)
        return [1] * len(doc.text)

    nlp = char_pipeline()
    docs = [nlp.make_doc(text) for text in MIXED_TEXTS]
    named = {"chars": counting, "tokens": sources.get("spacy-cws.doc_tokens.v1")()}
    add_segmentations(docs, named)
    add_segmentations(docs, named)
    assert len(calls) == len(docs)
    stored = [get_segmentations(doc) for doc in docs]
    docbin = DocBin(store_user_data=True, docs=docs)
    restored = list(DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab))
    assert [get_segmentations(doc) for doc in restored] == stored
    add_segmentations(restored, named)
    assert len(calls) == len(docs)


def test_cache_spares_new_docs_with_a_seen_text():
    calls = []

    def counting(doc):
        calls.append(doc.text)
        return [1] * len(doc.text)

    nlp = char_pipeline()
    cache = {}
    for _ in range(3):  # three "epochs" of fresh Docs
        add_segmentations([nlp.make_doc(t) for t in MIXED_TEXTS], {"chars": counting}, cache=cache, cache_size=100)
    assert len(calls) == len(MIXED_TEXTS)


def test_a_failing_source_is_named():
    def broken(doc):
        raise RuntimeError("model file is corrupt")

    nlp = char_pipeline()
    with pytest.raises(SegmentationError, match="'ictclas' failed.*model file is corrupt"):
        add_segmentations([nlp.make_doc("北京西山")], {"ictclas": broken})
    with pytest.raises(SegmentationError, match="'short'.*cover the text"):
        add_segmentations([nlp.make_doc("北京西山")], {"short": lambda doc: [2]})


@pytest.mark.parametrize(
    "name,module,package",
    [
        ("spacy-cws.jieba.v1", "jieba", "jieba"),
        ("spacy-cws.thulac.v1", "thulac", "thulac"),
        ("spacy-cws.pkuseg.v1", "spacy_pkuseg", "spacy-pkuseg"),
    ],
)
def test_missing_optional_segmenter_names_the_package(monkeypatch, name, module, package):
    monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    with pytest.raises(ImportError, match=f"pip install {package}"):
        sources.get(name)()


def test_pkuseg_needs_a_local_model(tmp_path):
    pytest.importorskip("spacy_pkuseg")
    with pytest.raises(FileNotFoundError, match="local spacy-pkuseg model"):
        sources.get("spacy-cws.pkuseg.v1")(model=None)
    with pytest.raises(FileNotFoundError, match="local spacy-pkuseg model"):
        sources.get("spacy-cws.pkuseg.v1")(model=str(tmp_path / "absent"))


def test_pipeline_source_uses_a_saved_pipeline(tmp_path):
    nlp = spacy.blank("zh")  # its default tokenizer: characters
    nlp.to_disk(tmp_path / "segmenter")
    source = sources.get("spacy-cws.pipeline_tokens.v1")(path=str(tmp_path / "segmenter"))
    text = MIXED_TEXTS[0]
    assert_covers(text, source(char_pipeline().make_doc(text)))
    with pytest.raises(FileNotFoundError, match="saved pipeline"):
        sources.get("spacy-cws.pipeline_tokens.v1")(path=str(tmp_path / "absent"))


def test_sources_registry_is_a_custom_spacy_registry():
    """registry.create made it: configs resolve @cws_sources, and the setup.cfg
    entry-point group is the one the registry reads."""
    import configparser
    from pathlib import Path

    assert registry.cws_sources is sources
    resolved = registry.resolve({"source": {"@cws_sources": "spacy-cws.characters.v1"}})["source"]
    assert words_of("新华社", resolved(char_pipeline().make_doc("新华社"))) == ["新", "华", "社"]
    setup = configparser.ConfigParser()
    setup.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    group = setup["options.entry_points"][sources.entry_point_namespace]
    assert "spacy-cws.jieba.v1 = spacy_cws.mwa.sources:create_jieba_source" in group
