"""Reading the user's raw domain text (adaptation/raw_text.py)."""
import pytest

from spacy_cws.adaptation.raw_text import read_raw_texts


def test_reads_lines_without_blanks_or_bom(tmp_path, zx_raw):
    path = tmp_path / "raw.txt"
    path.write_bytes(("\ufeff" + zx_raw[0] + "\r\n\n  \n" + "\n".join(zx_raw[1:100]) + "\n").encode("utf-8"))
    assert read_raw_texts([path]) == zx_raw[:100]


def test_too_little_text_is_refused(tmp_path):
    short, empty = tmp_path / "short.txt", tmp_path / "empty.txt"
    short.write_text("张小凡看着前方。\n" * 10, encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="holds 80 characters; adapting needs at least 1,000"):
        read_raw_texts([short])
    with pytest.raises(ValueError, match="holds 0 characters"):
        read_raw_texts([empty])


def test_non_utf8_names_the_file_and_line(tmp_path, zx_raw):
    path = tmp_path / "gbk.txt"
    path.write_bytes("\n".join(zx_raw[:50]).encode("utf-8") + "\n".encode() + "张小凡".encode("gbk") + b"\n")
    with pytest.raises(ValueError, match=f"{path}:51: not UTF-8"):
        read_raw_texts([path])


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        read_raw_texts([tmp_path / "absent.txt"])
    with pytest.raises(IsADirectoryError):
        read_raw_texts([tmp_path])
