"""Cutting a paragraph's words into sentences at the full stops."""
import pytest

from spacy_cws.corpora.sentences import split_sentences


@pytest.mark.parametrize(
    "paragraph,expected",
    [
        ("他 说 。 我 来 了 ！", ["他 说 。", "我 来 了 ！"]),
        # Closing quotes and more stops stay with the stop before them.
        ("他 说 ： “ 好 。 ” 我 来 了 ！ ！", ["他 说 ： “ 好 。 ”", "我 来 了 ！ ！"]),
        ("问 ？ 』 ） 答 ；", ["问 ？ 』 ）", "答 ；"]),
        # ，、：and the opening quote cut nothing; nor does a stop inside a word.
        ("一 、 二 ， 三 ： “ 四", ["一 、 二 ， 三 ： “ 四"]),
        ("甲。乙 丙", ["甲。乙 丙"]),
        ("标题", ["标题"]),
    ],
)
def test_split_sentences(paragraph, expected):
    sentences = split_sentences(paragraph.split())
    assert [" ".join(words) for words in sentences] == expected
    assert [word for words in sentences for word in words] == paragraph.split()


def test_no_words_no_sentence():
    assert split_sentences([]) == []
