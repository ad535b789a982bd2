from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.evaluation_files import list_text_lines, write_evaluation_files


def test_wordpos_evaluation_files_drop_tags(shared_data, tmp_path):
    input_path, gold_path = write_evaluation_files(get_corpus("zx"), shared_data, tmp_path)
    inputs = list_text_lines(input_path)
    gold = list_text_lines(gold_path)
    assert len(inputs) == len(gold) == 1394  # ZX test sentences (MANIFEST.md)
    assert gold[0] == "第一 章 隐忧"
    assert inputs[0] == "第一章隐忧"
    assert all("_" not in line for line in gold)
    assert all(line == "".join(g.split()) for line, g in zip(inputs, gold))


def test_official_sighan_files_are_kept_byte_for_byte(shared_data, tmp_path):
    files = get_corpus("cityu")
    _, gold_path = write_evaluation_files(files, shared_data, tmp_path)
    assert gold_path.read_bytes() == files.path(shared_data, "test_gold").read_bytes()
    inputs = list_text_lines(tmp_path / "test_input.utf8")
    assert inputs == list_text_lines(files.path(shared_data, "test_raw"))
    assert len(inputs) == len(list_text_lines(gold_path))


def test_list_text_lines_keeps_unicode_line_separators(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes("a\u2028b\r\nc\x85d\re\n".encode("utf-8"))
    assert list_text_lines(path) == ["a\u2028b", "c\x85d", "e"]
