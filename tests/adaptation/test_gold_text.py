"""Reading the user's gold sentences (adaptation/gold_text.py): what is read, and what is refused with its line."""
import re

import pytest

from spacy_cws.adaptation.gold_text import read_gold_sentences


@pytest.fixture
def zx_gold_lines(shared_data):
    """The first 60 sentences of ZX training, words separated by spaces (POS tags dropped)."""
    lines = []
    with (shared_data / "zx" / "train.zhuxian.wordpos").open(encoding="utf-8") as stream:
        for line in stream:
            lines.append(" ".join(token.rsplit("_", 1)[0] for token in line.split()))
            if len(lines) == 60:
                return lines


def write(path, lines, encoding="utf-8"):
    path.write_bytes("".join(line + "\n" for line in lines).encode(encoding))
    return path


def test_reads_words_and_skips_blank_lines_bom_and_outer_spaces(tmp_path, zx_gold_lines):
    lines = ["\ufeff" + zx_gold_lines[0], "", " " + zx_gold_lines[1] + " ", *zx_gold_lines[2:]]
    sentences = read_gold_sentences(write(tmp_path / "gold.txt", lines))
    assert len(sentences) == 60
    assert sentences[0] == zx_gold_lines[0].split(" ")
    assert sentences[1] == zx_gold_lines[1].split(" ")


def test_reads_the_sighan_files_separators(tmp_path, shared_data):
    """SIGHAN 2008 SXU separates words by two spaces; AS and CityU by U+3000."""
    lines = (shared_data / "sighan2008_sxu" / "train.txt").read_text(encoding="utf-8").splitlines()[:60]
    assert "  " in lines[0]
    sentences = read_gold_sentences(write(tmp_path / "sxu.txt", lines))
    assert sentences == [line.split() for line in lines] and all("" not in words for words in sentences)
    wide = read_gold_sentences(write(tmp_path / "wide.txt", [line.replace("  ", "\u3000") for line in lines]))
    assert wide == sentences


@pytest.mark.parametrize(
    "bad, message",
    [
        ("张\tB", "gold.txt:8: holds a tab: a gold sentence is its words separated by spaces"),
        ("张小凡_NR 看着_VV 前方_NN", "gold.txt:8: every word carries a POS tag (张小凡_NR): drop the tags"),
        ("张小凡/nr 看着/v 前方/f", "gold.txt:8: every word carries a POS tag (张小凡/nr)"),
        ("咖啡 cafe \u0301 馆",
         "gold.txt:8: the words do not tile the text: a word starts inside the character 'e\u0301'"),
        ("点赞 \U0001F44D \U0001F3FD 了", "gold.txt:8: the words do not tile the text: a word starts inside"),
    ],
)
def test_refuses_columns_tagged_words_and_words_that_do_not_tile(tmp_path, zx_gold_lines, bad, message):
    lines = list(zx_gold_lines)
    lines[7] = bad
    with pytest.raises(ValueError, match=re.escape(message)):
        read_gold_sentences(write(tmp_path / "gold.txt", lines))


def test_refuses_bytes_that_are_not_utf8(tmp_path, zx_gold_lines):
    path = tmp_path / "gold.txt"
    path.write_bytes(write(tmp_path / "ok.txt", zx_gold_lines[:10]).read_bytes() + "张 小凡\n".encode("gbk"))
    with pytest.raises(ValueError, match="gold.txt:11: not valid UTF-8"):
        read_gold_sentences(path)


def test_refuses_raw_text_and_too_few_sentences(tmp_path, zx_gold_lines):
    raw = [line.replace(" ", "") for line in zx_gold_lines]
    with pytest.raises(ValueError, match="no line holds two words: the file is raw text, not segmented"):
        read_gold_sentences(write(tmp_path / "raw.txt", raw))
    with pytest.raises(ValueError, match="49 gold sentences; learning a standard needs at least 50"):
        read_gold_sentences(write(tmp_path / "few.txt", zx_gold_lines[:49]))
    with pytest.raises(FileNotFoundError, match="Gold file not found"):
        read_gold_sentences(tmp_path / "missing.txt")
