"""The tokenizer form of a trained segmenter (SegmenterTokenizer) on real text."""

import pytest
from spacy.tokens import Doc
from spacy.training import Example

from spacy_cws.segmenter.segmenter_tokenizer import segmenter_as_tokenizer


def ctb6_examples(nlp, shared_data, n):
    """Examples of the first ``n`` CTB6 test sentences: the gold words, and the
    pipeline's own Doc of the text."""
    lines = [line for line in (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n") if line]
    examples = []
    for line in lines[:n]:
        words = line.split()
        reference = Doc(nlp.vocab, words=words, spaces=[False] * len(words))
        examples.append(Example(nlp.make_doc(reference.text), reference))
    return examples


def test_evaluate_reports_token_scores(zh_cws_gd_nlp, shared_data):
    """nlp.evaluate on a tokenizer-form pipeline reports token_f, as the
    component form does on the same sentences (the forms batch texts
    differently, so a word may differ in the last float bits)."""
    converted = segmenter_as_tokenizer(zh_cws_gd_nlp)
    scores = converted.evaluate(ctb6_examples(converted, shared_data, 80))
    reference = zh_cws_gd_nlp.evaluate(ctb6_examples(zh_cws_gd_nlp, shared_data, 80))
    assert 0.9 < scores["token_f"] < 1.0
    for key in ("token_acc", "token_p", "token_r", "token_f"):
        assert scores[key] == pytest.approx(reference[key], abs=0.002)


def test_pipe_segments_in_batches(zh_cws_gd_nlp, shared_data):
    """One model run per batch of texts (nlp.pipe would run it per text)."""
    converted = segmenter_as_tokenizer(zh_cws_gd_nlp)
    texts = [eg.reference.text for eg in ctb6_examples(converted, shared_data, 30)]
    segmenter = converted.tokenizer.segmenter
    calls = []
    segment_texts = segmenter.segment_texts
    segmenter.segment_texts = lambda batch, *args: calls.append(len(batch)) or segment_texts(batch, *args)
    docs = list(converted.tokenizer.pipe(texts, batch_size=16))
    assert calls == [16, 14]
    assert [doc.text for doc in docs] == texts
    assert sum(len(doc) for doc in docs) < sum(len(text) for text in texts)
