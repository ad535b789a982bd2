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
