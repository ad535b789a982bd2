"""The paragraphs of further training files whose text the training file lacks (pku_pfr's February)."""
from spacy_cws.corpora.formats import SegmentedSentence
from spacy_cws.corpora.more_paragraphs import known_ngrams, new_paragraphs, unbracketed

JANUARY = [
    "新华社 北京 １月 ２日 电 中共中央 总书记 江 泽民 今天 在 人民大会堂 会见 了 参加 全国 科技 工作 会议 的 代表 。",
    "国务院 总理 李 鹏 今天 上午 来到 北京 石景山 发电 总厂 考察 。",
]
FOLDS = [
    # January, revised (所属 -> 所 属 style changes): known
    "新华社 北京 １月 ２日 电 中共中央 总书记 江 泽民 今天 在 人民大会堂 会见 了 参加 全国 科技 工作 会议 的 代表 。",
    "国务院 总理 李 鹏 今天 上午 来到 [北京 石景山 发电 总厂] 考 察 。",
    # February: new, though it shares the agency line's characters with January
    "新华社 北京 ２月 ３日 电 [全国 人大 常委会] 今天 举行 第三十 次 会议 ， 审议 合同法 草案 。",
    "春节 前夕 ， 各地 群众 纷纷 走 上 街头 ， 购买 年货 。",
]


def _sentences(lines):
    return [SegmentedSentence(n, line.split()) for n, line in enumerate(lines, 1)]


def test_only_new_paragraphs_join_with_brackets_dropped(tmp_path):
    fold = tmp_path / "cv-1-filter_test.txt"
    fold.write_text("\n".join(FOLDS) + "\n", encoding="utf-8")
    found = new_paragraphs([fold], known_ngrams(_sentences(JANUARY)))
    assert [s.line_no for s in found] == [3, 4]
    assert found[0].words[5:9] == ["全国", "人大", "常委会", "今天"]
    assert all("[" not in word and "]" not in word for s in found for word in s.words)


def test_unbracketed_keeps_every_character_but_the_marks():
    words = "（ [中央 人民 广播 电台] 记者 ）".split()
    assert unbracketed(words) == ["（", "中央", "人民", "广播", "电台", "记者", "）"]
    assert "".join(unbracketed(words)) == "".join(words).replace("[", "").replace("]", "")
