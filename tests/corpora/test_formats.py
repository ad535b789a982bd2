"""Reading segmented corpus files: line ends, BOM, separators, errors."""
import re

import pytest

from spacy_cws.corpora.formats import CorpusFormatError, ReadStats, read_segmented


def _write(tmp_path, data: bytes, name="corpus.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _read(path, fmt="sighan"):
    return [(s.line_no, s.words) for s in read_segmented(path, fmt)]


def test_read_crlf_bom_blank_lines(tmp_path):
    data = "\ufeff上海 浦东\r\n\r\n  \r\n开发 与 法制\r\n".encode("utf-8")
    stats = ReadStats()
    sentences = list(read_segmented(_write(tmp_path, data), stats=stats))
    assert [(s.line_no, s.words) for s in sentences] == [(1, ["上海", "浦东"]), (4, ["开发", "与", "法制"])]
    assert (stats.lines, stats.blank_lines, stats.bytes_read) == (4, 2, len(data))


@pytest.mark.parametrize("sep", [" ", "  ", "\t", "\u3000", " \u3000\t"])
def test_read_word_separators(tmp_path, sep):
    path = _write(tmp_path, f"{sep}中国{sep}进出口{sep}银行{sep}\n".encode("utf-8"))
    assert _read(path) == [(1, ["中国", "进出口", "银行"])]


def test_read_lone_cr_and_missing_final_newline(tmp_path):
    path = _write(tmp_path, "一 二\r三\n\r四 五".encode("utf-8"))
    assert _read(path) == [(1, ["一", "二"]), (2, ["三"]), (4, ["四", "五"])]


def test_read_unicode_line_separators_do_not_end_lines(tmp_path):
    # str.splitlines() would make four lines of this; only \n ends a line.
    path = _write(tmp_path, "甲\u2028乙 丙\x1c丁\n戊\u2029己 庚\x85\n".encode("utf-8"))
    sentences = _read(path)
    assert [line_no for line_no, _ in sentences] == [1, 2]
    # They are whitespace, so they separate words.
    assert sentences[0][1] == ["甲", "乙", "丙", "丁"]


def test_read_bom_only_dropped_at_file_start(tmp_path):
    path = _write(tmp_path, "\ufeff甲 乙\n丙 \ufeff丁\n".encode("utf-8"))
    assert _read(path) == [(1, ["甲", "乙"]), (2, ["丙", "\ufeff丁"])]


def test_read_undecodable_line_names_file_and_line(tmp_path):
    path = _write(tmp_path, "甲 乙\n丙\n丁 ".encode("utf-8") + b"\xff" + "戊\n".encode("utf-8"))
    reader = read_segmented(path)
    assert next(reader).words == ["甲", "乙"]
    assert next(reader).words == ["丙"]
    with pytest.raises(CorpusFormatError) as excinfo:
        next(reader)
    assert isinstance(excinfo.value, ValueError)
    assert (excinfo.value.path, excinfo.value.line_no) == (path, 3)
    assert str(excinfo.value).startswith(f"{path}:3: not valid UTF-8")
    assert "0xff" in str(excinfo.value)


def test_read_wordpos_strips_last_tag(tmp_path):
    path = _write(tmp_path, "第一_OD 章_M\r\na_b_NN __PU 诛仙_NR\n".encode("utf-8"))
    assert _read(path, "wordpos") == [(1, ["第一", "章"]), (2, ["a_b", "_", "诛仙"])]


@pytest.mark.parametrize("token", ["诛仙", "_NN", "诛仙_"])
def test_read_wordpos_bad_token_names_file_and_line(tmp_path, token):
    path = _write(tmp_path, f"第一_OD\n\n章_M {token}\n".encode("utf-8"))
    with pytest.raises(CorpusFormatError, match="^" + re.escape(f"{path}:3: token '{token}'")):
        _read(path, "wordpos")


def test_read_rejects_unknown_format_and_missing_file(tmp_path):
    path = _write(tmp_path, b"a b\n")
    with pytest.raises(ValueError, match="unknown corpus format 'conll'"):
        read_segmented(path, "conll")
    with pytest.raises(FileNotFoundError):
        read_segmented(tmp_path / "missing.txt")


def test_read_real_cityu_gold_with_bom(shared_data):
    path = shared_data / "sighan2005" / "cityu" / "test_gold.utf8"
    stats = ReadStats()
    sentences = list(read_segmented(path, stats=stats))
    # MANIFEST.md: 1,492 sentences, 40,936 words, 67,689 chars; the file has a BOM.
    assert len(sentences) == 1492
    assert sum(len(s.words) for s in sentences) == 40936
    assert sum(len(w) for s in sentences for w in s.words) == 67689
    assert not sentences[0].words[0].startswith("\ufeff")
    assert stats.lines - stats.blank_lines == 1492


# PFR's own bytes: GBK, CRLF, a stray \r before a CRLF, a blank line between articles,
# a compound name in brackets and full-width digits.
PFR_LINES = (
    "19980101-01-001-002/m  中共中央/nt  总书记/n  、/w  国家/n  主席/n  江/nr  泽民/nr  \r\r\n"
    "\r\n"
    "19980101-02-010-001/m  [中国/ns  政府/n]nt  发表/v  １２月/t  ３１日/t  的/u  [/w  １/２/m  ]/w  \r\n"
    "19980101-02-010-002/m  \r\n"
)


def test_read_pfr_drops_ids_tags_and_brackets(tmp_path):
    path = _write(tmp_path, PFR_LINES.encode("gbk"))
    stats = ReadStats()
    sentences = [(s.line_no, s.words) for s in read_segmented(path, "pfr", stats)]
    assert sentences == [
        (1, ["中共中央", "总书记", "、", "国家", "主席", "江", "泽民"]),
        (4, ["中国", "政府", "发表", "１２月", "３１日", "的", "[", "１/２", "]"]),
    ]
    # The stray \r makes one of the blank lines; a paragraph id alone counts as one.
    assert (stats.lines, stats.blank_lines) == (5, 3)


@pytest.mark.parametrize(
    "line,reason",
    [
        ("中共中央/nt  总书记/n", "expected a paragraph id like 19980101-01-001-001/m first, got '中共中央/nt'"),
        ("19980101-01-001-002/m  中共中央/nt  总书记", "token '总书记' is not of the form word/TAG"),
        ("19980101-01-001-002/m  中共中央/", "token '中共中央/' is not of the form word/TAG"),
    ],
)
def test_read_pfr_bad_line_names_file_and_line(tmp_path, line, reason):
    path = _write(tmp_path, ("19980101-01-001-001/m  迈向/v\r\n" + line + "\r\n").encode("gbk"))
    with pytest.raises(CorpusFormatError, match="^" + re.escape(f"{path}:2: {reason}")):
        _read(path, "pfr")


def test_read_pfr_that_is_not_gbk_names_file_and_line(tmp_path):
    path = _write(
        tmp_path, "19980101-01-001-001/m  迈向/v\r\n".encode("gbk") + b"19980101-01-001-002/m  \xff\xff/v\r\n"
    )
    with pytest.raises(CorpusFormatError, match="^" + re.escape(f"{path}:2: not valid GBK (byte 0xff")):
        _read(path, "pfr")


def test_read_real_pfr(shared_data):
    sentences = list(read_segmented(shared_data / "pku_pfr1998" / "199801.txt", "pfr"))
    # MANIFEST.md: 19,484 paragraphs, 1,121,447 words, 1,841,657 characters.
    assert len(sentences) == 19484
    assert sum(len(s.words) for s in sentences) == 1121447
    assert sum(len(w) for s in sentences for w in s.words) == 1841657
    assert sentences[1].words == ["中共中央", "总书记", "、", "国家", "主席", "江", "泽民"]
    assert not any(c in w for s in sentences for w in s.words for c in "[]/\r")


BIES = "上\tB\r\n海\tE\r\n浦\tB\r\n东\tE\r\n\r\n\r\n新\tB\r\n华\tM\r\n社\tE\r\n电\tS\r\n"


def test_read_bies_words_and_line_numbers(tmp_path):
    path = _write(tmp_path, ("\ufeff" + BIES).encode("utf-8"))  # a BOM, CRLF, two blank lines, no final one
    stats = ReadStats()
    assert [(s.line_no, s.words) for s in read_segmented(path, "bies", stats)] == [
        (1, ["上海", "浦东"]),
        (7, ["新华社", "电"]),
    ]
    assert (stats.lines, stats.blank_lines) == (10, 2)


@pytest.mark.parametrize(
    "lines,line_no,reason",
    [
        (["上\tI", "海\tE"], 1, "tag I continues no word"),
        (["上\tS", "海\tE"], 2, "tag E continues no word"),
        (["上\tB", "海\tB"], 2, "tag B inside a word"),
        (["上\tB", "海\tS"], 2, "tag S inside a word"),
        (["上\tB", "海\tI", "", "浦\tS"], 2, "the sentence ends inside a word"),
        (["上\tS", "海\tB"], 2, "the sentence ends inside a word"),
        (["上\tS", "海\tX"], 2, "expected 'CHARACTER TAG' with a tag B, I, M, E or S, got '海\\tX'"),
        (["上海\tS"], 1, "expected 'CHARACTER TAG'"),
        (["上\tS\tS"], 1, "expected 'CHARACTER TAG'"),
    ],
)
def test_read_bies_bad_tags_name_file_and_line(tmp_path, lines, line_no, reason):
    path = _write(tmp_path, "\n".join(lines).encode("utf-8") + b"\n")
    with pytest.raises(CorpusFormatError, match="^" + re.escape(f"{path}:{line_no}: {reason}")):
        _read(path, "bies")


@pytest.mark.parametrize(
    "name,counts",
    # MANIFEST.md: sentences, words, characters.
    [("pku_dev.txt", (7133, 117825, 193843)), ("msr_dev.txt", (11200, 237645, 406605))],
)
def test_read_real_sighan_training_samples(shared_data, name, counts):
    sentences = list(read_segmented(shared_data / "sighan2005_train_samples" / name, "bies"))
    assert (len(sentences), sum(len(s.words) for s in sentences)) == counts[:2]
    assert sum(len(w) for s in sentences for w in s.words) == counts[2]
    if name == "pku_dev.txt":
        assert sentences[0].words[:4] == ["李", "铁映", "、", "贾"]
