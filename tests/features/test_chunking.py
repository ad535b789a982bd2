import pytest

from spacy_cws.features.chunking import CLAUSE_FINAL, chunk_spans


def test_short_text_is_one_span():
    assert chunk_spans("今天天气很好", 10) == [(0, 6)]
    assert chunk_spans("", 10) == []


def test_cuts_after_clause_end_within_limit():
    symbols = "我来了。你呢？他去哪里了我不知道"
    spans = chunk_spans(symbols, 8)
    assert spans[0] == (0, 7)  # after "？", the last clause end within 8 units
    assert all(end - start <= 8 for start, end in spans)
    assert spans[-1][1] == len(symbols)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


def test_hard_cut_without_punctuation_loses_nothing():
    symbols = "字" * 5000
    spans = chunk_spans(symbols, 256)
    assert sum(end - start for start, end in spans) == 5000
    assert max(end - start for start, end in spans) == 256


def test_bad_max_length():
    with pytest.raises(ValueError, match="max_length"):
        chunk_spans("a", 0)


def _reference_spans(symbols, max_length):
    """The definition: scan back from the limit to the last clause end."""
    spans, start, n = [], 0, len(symbols)
    while n - start > max_length:
        limit = start + max_length
        cut = next((i for i in range(limit, start, -1) if symbols[i - 1] in CLAUSE_FINAL), limit)
        spans.append((start, cut))
        start = cut
    return spans + ([(start, n)] if start < n else [])


@pytest.mark.parametrize("max_length", [1, 2, 7, 30, 256])
def test_spans_match_the_scanning_definition_on_real_text(max_length, shared_data):
    text = "".join((shared_data / "ctb6" / "test.seg").read_text(encoding="utf8").split())[:20000]
    assert chunk_spans(text, max_length) == _reference_spans(text, max_length)
