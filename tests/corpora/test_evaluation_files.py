import shutil

import pytest

from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.convert import convert_corpus
from spacy_cws.corpora.evaluation_files import list_text_lines, write_evaluation_files
from spacy_cws.scoring.evaluation_checks import check_evaluation_files
from spacy_cws.scoring.line_alignment import LineMismatchError


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


def official_test_folder(name, shared_data, folder):
    """The test files ``prepare`` writes for a SIGHAN 2005 corpus (its
    training file is not among the shared corpora): input, gold, test.spacy
    and the official training word list."""
    files = get_corpus(name)
    write_evaluation_files(files, shared_data, folder)
    convert_corpus(files.path(shared_data, "test_gold"), folder / "test.spacy", criterion=name)
    shutil.copyfile(files.path(shared_data, "train_words"), folder / "train_words.txt")
    return folder


@pytest.mark.parametrize("name", ["msr", "as"])
def test_official_gold_that_differs_from_its_input_passes_the_checks(name, shared_data, tmp_path):
    """MSR's gold moves an opening quotation mark to the line before on 16
    lines, AS's has an ASCII letter for a full-width one on 1: evaluate
    scores them, as the official script does."""
    folder = official_test_folder(name, shared_data, tmp_path)
    gold, test_input = list_text_lines(folder / "test_gold.utf8"), list_text_lines(folder / "test_input.utf8")
    assert any("".join(g.split()) != line for g, line in zip(gold, test_input))
    check_evaluation_files(folder)


def test_a_shifted_official_gold_is_refused(shared_data, tmp_path):
    """Issue 50, item 1: MSR's gold with its first line moved to the end has
    as many lines as its input, and was scored against it."""
    folder = official_test_folder("msr", shared_data, tmp_path)
    gold = (folder / "test_gold.utf8").read_bytes().splitlines(keepends=True)
    (folder / "test_gold.utf8").write_bytes(b"".join(gold[1:] + gold[:1]))
    with pytest.raises(LineMismatchError, match="^line 1: .*test_input.utf8 holds other characters than"):
        check_evaluation_files(folder)
