"""Splitting the words a word list lacks into listed words (SIGHAN PKU's revision of PFR)."""
from spacy_cws.corpora.formats import SegmentedSentence
from spacy_cws.corpora.listed_words import ListedWords, split_unlisted_words

LISTED = ListedWords({"放", "在", "党委", "书记", "看", "不", "到", "看不", "不到", "取决", "于", "上"})


def test_split_into_the_one_fewest_piece_split():
    assert LISTED.split("放在") == ["放", "在"]
    assert LISTED.split("党委书记") == ["党委", "书记"]  # not 党委 书 记: no 书, and fewest pieces win
    assert LISTED.split("取决于") == ["取决", "于"]


def test_listed_ambiguous_and_unsplittable_words_are_kept():
    assert LISTED.split("书记") == ["书记"]  # listed
    assert LISTED.split("看不到") == ["看不到"]  # 看不 到 and 看 不到: two splits of two pieces
    assert LISTED.split("惠（君音）") == ["惠（君音）"]  # no split into listed words
    assert LISTED.split("党委书") == ["党委书"]


def test_split_unlisted_words_keeps_the_characters_and_counts():
    sentences = [SegmentedSentence(3, ["党委书记", "放在", "上", "看不到"])]
    out, split = split_unlisted_words(sentences, LISTED)
    assert [(s.line_no, s.words) for s in out] == [(3, ["党委", "书记", "放", "在", "上", "看不到"])]
    assert split == 2
    assert "".join(out[0].words) == "".join(sentences[0].words)


def test_real_pfr_words_split_by_the_official_pku_word_list(shared_data):
    words = (shared_data / "sighan2005/pku/training_words.utf8").read_text(encoding="utf-8").split()
    listed = ListedWords(set(words))
    # SIGHAN's revision of PFR (MANIFEST.md): 放在 / 放 在, 更是 / 更 是; 提出 is listed and kept.
    assert listed.split("放在") == ["放", "在"]
    assert listed.split("更是") == ["更", "是"]
    assert listed.split("提出") == ["提出"]
