"""Prefer-mode user words kept whole where the model cuts them into a piece no lexicon knows."""
import pickle

import numpy
import pytest

from spacy_cws.features.character_view import Normaliser
from spacy_cws.segmenter.unknown_pieces import matches_kept_whole

TEXT = "田不易说2009年的事"  # units: 田 不 易 说 0 年 的 事
KNOWN = {"不易", "年的"}


def words_at(*starts):
    """Model words starting at these character offsets of TEXT."""
    edges = [*starts, len(TEXT)]
    return numpy.array([[a, b] for a, b in zip(edges, edges[1:])], dtype=numpy.int64)


@pytest.mark.parametrize(
    "starts, kept",
    [
        ((0, 2, 3, 4, 8, 9, 10), [[0, 3]]),  # 田不|易: 田不 is no word -> whole
        ((0, 1, 3, 4, 8, 9, 10), []),  # 田|不易: a known word and one character
        ((0, 1, 2, 3, 4, 8, 9, 10), []),  # 田|不|易: single characters
        ((0, 3, 4, 8, 9, 10), []),  # 田不易 whole already
        ((0, 2, 4, 8, 9, 10), []),  # 田不|易说: the match ends inside the model's word 易说
    ],
)
def test_a_cut_leaving_an_unknown_piece_keeps_the_word_whole(starts, kept):
    view = Normaliser()(TEXT)
    matches = numpy.array([[0, 3]])
    assert matches_kept_whole(view, words_at(*starts), matches, KNOWN.__contains__).tolist() == kept


def test_pieces_are_read_in_the_models_view():
    # The number 2009 is one unit "0": 说2009年|的事 leaves the piece "说0年"
    # (three units, unknown); 2009|年的|事 leaves "0" (one unit) and the known "年的".
    view = Normaliser()(TEXT)
    seen = []

    def knows(key):
        seen.append(key)
        return key in KNOWN

    assert matches_kept_whole(view, words_at(0, 3, 9), numpy.array([[3, 11]]), knows).tolist() == [[3, 11]]
    assert seen == ["说0年"]
    seen.clear()
    assert not len(matches_kept_whole(view, words_at(0, 3, 4, 8, 10), numpy.array([[4, 11]]), knows))
    assert seen == ["年的"]
    assert not len(matches_kept_whole(view, words_at(0)[:0], numpy.array([[4, 11]]), knows))
    assert not len(matches_kept_whole(view, words_at(0, 3, 9), numpy.zeros((0, 2), dtype=numpy.int64), knows))


@pytest.fixture(scope="module")
def dl_lines(shared_data):
    """The DL novel (../shared/data/adapt/dl), which the shipped pipelines never saw, as raw lines."""
    text = (shared_data / "adapt" / "dl" / "dl_test_gold.txt").read_text(encoding="utf-8-sig")
    return ["".join(line.split()) for line in text.splitlines() if line.strip()]


def test_a_dictionary_word_the_model_cuts_into_unknown_pieces_is_kept_whole(zh_cws_gd_sm_nlp, dl_lines):
    """zh_cws_gd_sm 0.7.0 makes nearly every dictionary word of the DL novel a word in prefer mode with
    adapt's bonus; 间不容发 it still cuts (间|不容发), and 间不容发 is no word it knows: joined."""
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    seg = nlp.get_pipe("gd_segmenter")
    seg.set_user_dictionary_mode("prefer")
    seg.cfg["user_dictionary_bonus_with_lexicon"] = True
    seg.cfg["user_dictionary_bonus"] = 1.0  # as spacy_cws adapt sets it
    seg.add_words(["间不容发", "唐三"])  # an idiom, and the novel's hero
    texts = [line for line in dl_lines if "间不容发" in line] + [line for line in dl_lines if "唐三" in line][:20]

    def words(join):
        seg.cfg["user_dictionary_join_unknown_pieces"] = join
        return [[token.text for token in doc] for doc in nlp.pipe(texts)]

    cut, joined = words(False), words(True)
    assert sum(ws.count("间不容发") for ws in cut) == 0 and sum(text.count("间不容发") for text in texts) >= 3
    assert all("".join(ws) == text for ws, text in zip(joined, texts))
    for ws, text in zip(joined, texts):
        assert ws.count("间不容发") == text.count("间不容发")
        assert ws.count("唐三") == text.count("唐三")  # the bonus alone makes it a word
    # Only the words of the dictionary matches change.
    for before, after in zip(cut, joined):
        assert " ".join(before).replace("间 不容发", "间不容发") == " ".join(after)
