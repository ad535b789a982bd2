"""The segmenter edits the Doc it is given, as spaCy's own components do."""

import numpy

import pytest
import spacy
from spacy.tokens import Span

from spacy_cws.segmenter import merge_words as merge_words_module
from spacy_cws.segmenter.merge_words import merge_words

from ..segmentation_data import SENTENCES

TEXTS = ["".join(s.split()) for s in SENTENCES]


def ctb6_texts(shared_data, n):
    """The first ``n`` CTB6 test sentences of at least 8 characters, unsegmented."""
    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n")
    return [text for text in ("".join(line.split()) for line in lines) if len(text) >= 8][:n]


def test_call_returns_the_same_doc(trained_nlp):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    doc = trained_nlp.make_doc(TEXTS[1])
    assert segmenter(doc) is doc
    assert [t.text for t in doc] == SENTENCES[1].split()


def test_as_tuples_keeps_contexts(zh_cws_gd_nlp, shared_data):
    texts = ctb6_texts(shared_data, 40)
    contexts = [{"line": i} for i in range(len(texts))]
    results = list(zh_cws_gd_nlp.pipe(zip(texts, contexts), as_tuples=True, batch_size=16))
    assert [context for _, context in results] == contexts
    assert [doc.text for doc, _ in results] == texts
    assert [[t.text for t in doc] for doc, _ in results] == [[t.text for t in doc] for doc in zh_cws_gd_nlp.pipe(texts)]


def test_cats_spans_and_user_data_survive(zh_cws_gd_nlp, shared_data):
    texts = ctb6_texts(shared_data, 20)
    docs = [zh_cws_gd_nlp.make_doc(text) for text in texts]
    for i, doc in enumerate(docs):
        doc.cats = {"news": 1.0, "index": float(i)}
        doc._.cws_criterion = None
        doc.user_data["source"] = f"ctb6:{i}"
        # Character spans set before segmentation: the first three characters
        # and the last one, and an empty span at character 1.
        doc.spans["marks"] = [Span(doc, 0, 3, label="HEAD"), Span(doc, len(doc) - 1, len(doc), label="TAIL")]
        doc.spans["marks"].attrs["kind"] = "manual"
        doc.spans["empty"] = [Span(doc, 1, 1, label="GAP")]
    segmented = list(zh_cws_gd_nlp.pipe(docs, batch_size=8))
    for i, (doc, before, text) in enumerate(zip(segmented, docs, texts)):
        assert doc is before
        assert doc.text == text
        assert len(doc) < len(text)  # words were merged
        assert doc.cats == {"news": 1.0, "index": float(i)}
        assert doc.user_data["source"] == f"ctb6:{i}"
        head, tail = doc.spans["marks"]
        assert doc.spans["marks"].attrs == {"kind": "manual"}
        assert (head.label_, tail.label_) == ("HEAD", "TAIL")
        # Each span now covers the words holding its first and last character.
        assert head.start_char == 0 and head.end_char >= 3
        assert head.end_char == max(t.idx + len(t) for t in doc if t.idx < 3)
        assert tail.end_char == len(text) and tail.start_char == doc[-1].idx
        (empty,) = doc.spans["empty"]
        assert len(empty) == 0 and empty.label_ == "GAP"


def test_error_handler_is_called_for_a_failing_doc(trained_nlp):
    """A Doc that is not character-tokenized fails the segmenter; nlp.pipe
    hands it to the pipeline's error handler and goes on."""
    seen = []

    def handler(name, component, docs, error):
        seen.append((name, [doc.text for doc in docs], type(error)))

    good = [trained_nlp.make_doc(text) for text in TEXTS[:2]]
    # Tokens across the model's words for this text (新华社 | 北京).
    bad = spacy.tokens.Doc(trained_nlp.vocab, words=["新华", "社北", "京"], spaces=[False] * 3)
    trained_nlp.set_error_handler(handler)
    try:
        results = list(trained_nlp.pipe([good[0], bad, good[1]], batch_size=1))
    finally:
        trained_nlp.set_error_handler(spacy.util.raise_error)
    assert [[t.text for t in doc] for doc in results] == [SENTENCES[0].split(), SENTENCES[1].split()]
    assert seen == [("gd_segmenter", ["新华社北京"], ValueError)]


def test_texts_are_kept_exactly(zh_cws_gd_nlp, shared_data):
    texts = ctb6_texts(shared_data, 60)
    # Whitespace of every kind inside and around the text, and one long text.
    texts += ["  上海浦东 开发与法制建设同步\n\n", "ＩＢＭ公司\t2024年营收３．５％增长 ", "".join(texts)]
    for doc, text in zip(zh_cws_gd_nlp.pipe(texts, batch_size=16), texts):
        assert doc.text == text
        assert all(not t.text.isspace() or t.is_space for t in doc)


def test_merges_in_blocks_give_the_same_words(trained_nlp, monkeypatch):
    """A Doc longer than one block of merges is merged block by block from its
    end: the words are those of a single block. (A tag on the first character
    sends the Doc through the retokenizer.)"""
    text = "".join(TEXTS) * 3
    reference = [t.text for t in trained_nlp(text)]
    monkeypatch.setattr(merge_words_module, "MIN_BLOCK", 2)
    doc = trained_nlp.make_doc(text)
    doc[0].tag_ = "NR"
    assert not merge_words_module.holds_only_characters(doc)
    trained_nlp.get_pipe("gd_segmenter")(doc)
    assert [t.text for t in doc] == reference
    assert doc[0].tag_ == "NR"


def _tokens(doc):
    return [(t.text, t.whitespace_, t.is_space) for t in doc]


def _spans(doc):
    return {name: [(s.start, s.end, s.label_) for s in group] for name, group in doc.spans.items()}


def test_rebuilding_and_retokenizing_give_the_same_doc(zh_cws_gd_nlp, shared_data):
    """The in-place rebuild (Docs holding only characters) and the retokenizer
    give the same tokens, whitespace and re-anchored spans, on CTB6 text and on
    text with whitespace of every kind."""
    texts = ctb6_texts(shared_data, 30)
    texts += ["  上海浦东 开发与法制建设同步\n\n", "ＩＢＭ公司\t2024年营收３．５％增长 ", "我们  在\u3000这里 。", " "]
    segmenter = zh_cws_gd_nlp.get_pipe("gd_segmenter")
    predicted = segmenter.predict([zh_cws_gd_nlp.make_doc(text) for text in texts])
    for text, (predicted_text, words) in zip(texts, predicted):
        assert predicted_text == text
        rebuilt, merged = zh_cws_gd_nlp.make_doc(text), zh_cws_gd_nlp.make_doc(text)
        for doc in (rebuilt, merged):
            doc.spans["marks"] = [Span(doc, 0, min(3, len(doc)), label="HEAD"), Span(doc, len(doc) - 1, len(doc))]
        multi = words[words[:, 1] - words[:, 0] > 1]
        firsts, lasts = merge_words_module._token_ranges(merged, multi, "gd_segmenter")
        groups = merge_words_module._span_offsets(merged)
        if len(multi):
            merge_words_module.merge_with_retokenizer(merged, firsts, lasts)
        merge_words_module._restore_span_groups(merged, groups)
        assert merge_words_module.holds_only_characters(rebuilt)
        merge_words(rebuilt, words, "gd_segmenter", text)
        assert rebuilt.text == merged.text == text
        assert _tokens(rebuilt) == _tokens(merged)
        assert _spans(rebuilt) == _spans(merged)


def test_rebuilding_keeps_doc_state(zh_cws_gd_nlp, shared_data):
    """Everything Doc-level survives the in-place rebuild: identity, cats,
    user data, context, user hooks and an extension value."""
    (text,) = ctb6_texts(shared_data, 1)
    doc = zh_cws_gd_nlp.make_doc(text)
    doc.cats = {"news": 1.0}
    doc.user_data["source"] = "ctb6:0"
    doc._context = {"line": 0}
    doc.user_hooks["has_vector"] = lambda d: True
    doc._.cws_criterion = "ctb6"
    assert zh_cws_gd_nlp.get_pipe("gd_segmenter")(doc) is doc
    assert len(doc) < len(text)
    assert doc.cats == {"news": 1.0} and doc.user_data["source"] == "ctb6:0"
    assert doc._context == {"line": 0} and doc.has_vector
    assert doc._.cws_criterion == "ctb6"


def test_entities_on_characters_survive_through_the_retokenizer(zh_cws_gd_nlp):
    """An entity set on characters before segmentation (a Doc that does not
    hold only characters) is kept on the merged words."""
    text = "新华社北京十二月三十一日电"
    doc = zh_cws_gd_nlp.make_doc(text)
    doc.ents = [Span(doc, 3, 5, label="GPE")]
    zh_cws_gd_nlp.get_pipe("gd_segmenter")(doc)
    assert len(doc) < len(text)
    assert [(e.text, e.label_) for e in doc.ents] == [("北京", "GPE")]


def test_merge_words_rejects_a_text_of_another_length(zh_cws_gd_nlp):
    doc = zh_cws_gd_nlp.make_doc("上海浦东开发")
    with pytest.raises(ValueError, match="not its text"):
        merge_words(doc, numpy.array([[0, 2], [2, 4], [4, 6]]), "gd_segmenter", "上海浦东开发。")


def test_merge_words_rejects_multi_character_tokens(trained_nlp):
    doc = spacy.tokens.Doc(trained_nlp.vocab, words=["新华社", "北京"], spaces=[False, False])
    with pytest.raises(ValueError, match="CharPretokenizer"):
        merge_words(doc, numpy.array([[0, 2], [2, 5]]), "gd_segmenter")
