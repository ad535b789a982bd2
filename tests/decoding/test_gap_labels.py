import spacy
from spacy.tokens import Doc

from spacy_cws.decoding.gap_labels import BOUNDARY, NO_BOUNDARY, gap_labels, unit_starts_word
from spacy_cws.features.character_view import Normaliser
from spacy_cws.features.chunking import chunk_spans


def test_gap_labels_from_reference_words():
    vocab = spacy.blank("xx").vocab
    words = ["中国", "十四", "个", "iPhone", "12"]
    reference = Doc(vocab, words=words, spaces=[False] * len(words))
    view = Normaliser()(reference.text)
    starts = unit_starts_word(view, (t.idx for t in reference))
    labels = gap_labels(starts, chunk_spans(view.symbols, 256))
    # units: 中 国 十 四 个 X 0  -> gaps before each unit + the final gap
    assert len(labels) == 1
    assert labels[0].tolist() == [BOUNDARY, NO_BOUNDARY, BOUNDARY, NO_BOUNDARY, BOUNDARY, BOUNDARY, BOUNDARY, BOUNDARY]


def test_gap_labels_across_a_cut():
    words = ["我们", "来", "了", "。", "你们", "呢"]
    text = "".join(words)
    view = Normaliser()(text)
    vocab = spacy.blank("xx").vocab
    reference = Doc(vocab, words=words, spaces=[False] * len(words))
    starts = unit_starts_word(view, (t.idx for t in reference))
    spans = chunk_spans(view.symbols, 5)
    assert spans == [(0, 5), (5, 8)]
    labels = gap_labels(starts, spans)
    assert labels[0].tolist() == [1, 0, 1, 1, 1, 1]
    assert labels[1].tolist() == [1, 0, 1, 1]
