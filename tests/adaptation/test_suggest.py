"""Which raw lines to segment by hand (adaptation/suggest.py): the model's least certain, and its wrong ones."""
import numpy
import pytest
import spacy

from spacy_cws.adaptation.suggest import line_uncertainty, suggest_lines


def test_line_uncertainty_is_the_mean_chance_of_a_wrong_gap():
    assert line_uncertainty(numpy.array([0.5, 0.0, 1.0, 0.9], dtype=numpy.float32)) == pytest.approx(0.15)
    assert line_uncertainty(numpy.array([], dtype=numpy.float32)) == 0.0


def gap_errors(words, gold_words):
    """The gaps where the two segmentations of one text disagree, and the text's gaps."""

    def boundaries(ws):
        ends = numpy.cumsum([len(w) for w in ws])[:-1]
        return set(ends.tolist())

    return len(boundaries(words) ^ boundaries(gold_words)), sum(map(len, gold_words)) - 1


@pytest.fixture(scope="module")
def zx_gold(shared_data):
    """The first 600 sentences of ZX training, each its gold words."""
    sentences = []
    with (shared_data / "zx" / "train.zhuxian.wordpos").open(encoding="utf-8") as stream:
        for line in stream:
            sentences.append([token.rsplit("_", 1)[0] for token in line.split()])
            if len(sentences) == 600:
                return sentences


def test_suggested_lines_are_the_uncertain_ones_and_hold_more_errors(zx_gold):
    segmenter = spacy.load("zh_cws_gd_sm").get_pipe("gd_segmenter")
    texts = ["".join(words) for words in zx_gold]
    suggestions = suggest_lines(segmenter, texts + texts[:10], 50)
    assert len(suggestions) == 50
    assert len({suggestion.index for suggestion in suggestions}) == 50
    assert all(index < 600 for index in (s.index for s in suggestions))  # a repeated line is suggested once
    uncertainties = [suggestion.uncertainty for suggestion in suggestions]
    assert uncertainties == sorted(uncertainties, reverse=True)
    assert all("".join(s.words) == texts[s.index] for s in suggestions)
    _, probs = segmenter.segment_with_probs(texts)
    assert min(uncertainties) >= sorted(map(line_uncertainty, probs), reverse=True)[49]
    # The model's words are wrong at a larger share of the suggested lines' gaps than of all lines'.
    segmented = zip(texts, segmenter.segment_texts(texts))
    all_words = [[text[start:end] for start, end in spans] for text, spans in segmented]
    wrong, gaps = numpy.sum([gap_errors(w, g) for w, g in zip(all_words, zx_gold)], axis=0)
    chosen = [gap_errors(s.words, zx_gold[s.index]) for s in suggestions]
    wrong_chosen, gaps_chosen = numpy.sum(chosen, axis=0)
    assert wrong_chosen / gaps_chosen > 1.5 * wrong / gaps  # 14.1% against 7.1% (zh_cws_gd_sm 0.6.1)


def test_suggest_at_least_one():
    with pytest.raises(ValueError, match="at least one line"):
        suggest_lines(spacy.load("zh_cws_gd_sm").get_pipe("gd_segmenter"), ["好的"], 0)
