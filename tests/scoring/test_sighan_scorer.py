"""The Python port of the SIGHAN icwb2 scorer against the official Perl script."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import srsly
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.scoring.sighan import SighanScore, read_dictionary, score_files, score_lines

needs_perl_and_diff = pytest.mark.skipif(
    shutil.which("perl") is None or not Path("/usr/bin/diff").exists(),
    reason="the Perl scorer needs perl and /usr/bin/diff",
)


def _score(gold, system, dictionary=(), perl_compat=False):
    return score_lines(
        [g.encode() for g in gold],
        [s.encode() for s in system],
        {w.encode() for w in dictionary},
        perl_compat=perl_compat,
    )


def _fmt(value):
    return "--" if value is None else "%.3f" % value


def _perl_summary(script: Path, words: Path, gold: Path, system: Path) -> dict:
    """The '=== KEY:\tVALUE' summary lines of the Perl scorer."""
    command = ["perl", str(script), str(words), str(gold), str(system)]
    out = subprocess.run(command, capture_output=True, check=True)
    return dict(re.findall(r"^=== (.+?):\t(.*)$", out.stdout.decode("utf-8", "replace"), re.M))


def _port_summary(result: SighanScore) -> dict:
    """The port's result in the Perl script's format (3 decimals, "--")."""
    return {
        "TOTAL TRUE WORD COUNT": str(result.true_words),
        "TOTAL TEST WORD COUNT": str(result.test_words),
        "TOTAL TRUE WORDS RECALL": _fmt(result.recall),
        "TOTAL TEST WORDS PRECISION": _fmt(result.precision),
        "F MEASURE": _fmt(result.f1),
        "OOV Rate": _fmt(result.oov_rate),
        "OOV Recall Rate": _fmt(result.oov_recall),
        "IV Recall Rate": _fmt(result.iv_recall),
        "TOTAL INSERTIONS": str(result.insertions),
        "TOTAL DELETIONS": str(result.deletions),
        "TOTAL SUBSTITUTIONS": str(result.substitutions),
    }


def _assert_parity(script, words, gold, system):
    perl = _perl_summary(script, words, gold, system)
    port = _port_summary(score_files(gold, system, words, perl_compat=True))
    assert {key: perl.get(key) for key in port} == port


def _assert_corpus_parity(folder: Path, corpus: str, system: Path) -> None:
    words, gold = folder / corpus / "training_words.utf8", folder / corpus / "test_gold.utf8"
    _assert_parity(folder / "score", words, gold, system)


def _jieba_segment(test_input: Path, output: Path, max_lines=None) -> None:
    """Segment a SIGHAN test input with jieba (a real, imperfect system)."""
    jieba = pytest.importorskip("jieba")
    lines = test_input.read_text(encoding="utf-8").rstrip("\n").split("\n")[:max_lines]
    segmented = "".join(" ".join(jieba.cut(line, HMM=True)) + "\n" for line in lines)
    output.write_text(segmented, encoding="utf-8")


def test_identical_files_score_one():
    gold = ["中国 人民 银行", "他 说 ， 好 。"]
    result = _score(gold, gold, {"中国", "银行", "他", "说", "，", "好", "。"})
    assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
    assert result.oov_rate == pytest.approx(1 / 8)
    assert (result.oov_recall, result.iv_recall) == (1.0, 1.0)
    assert (result.true_words, result.test_words) == (8, 8)
    assert (result.insertions, result.deletions, result.substitutions) == (0, 0, 0)


def test_hand_computed_case():
    # diff: "d" is common; a|ab and bc|c are two substitutions.
    result = _score(["a bc d"], ["ab c d"], {"a", "d"})
    assert (result.true_words, result.test_words) == (3, 3)
    assert (result.recall, result.precision, result.f1) == (1 / 3, 1 / 3, pytest.approx(1 / 3))
    assert result.oov_rate == 1 / 3  # "bc"
    assert result.oov_recall == 0.0
    assert result.iv_recall == 0.5  # "d" found, "a" missed
    assert (result.insertions, result.deletions, result.substitutions) == (0, 0, 2)


def test_no_oov_gives_none():
    result = _score(["a b"], ["a b"], {"a", "b"})
    assert result.oov_recall is None and result.iv_recall == 1.0
    assert result.to_dict()["oov_recall"] is None


def test_perl_compat_skips_an_empty_gold_line():
    result = _score(["a b", "", "c"], ["a b", "x y z", "c"], perl_compat=True)
    assert (result.true_words, result.test_words) == (3, 3)
    assert result.f1 == 1.0


def test_perl_compat_reads_until_either_file_ends():
    result = _score(["a b", "c d", "e"], ["a b"], perl_compat=True)
    assert (result.true_words, result.test_words) == (2, 2)


def test_blank_lines_and_whitespace_do_not_break_alignment():
    gold = ["\ufeff中国 人民\r\n", "\r\n", "他\u3000说 。\n", "\n"]
    result = _score(gold, ["中国人 民\n", "\n", "他 说。\n"])
    assert (result.true_words, result.test_words) == (5, 4)


def test_matches_words_not_spans():
    # "a a" vs "aa": no common string; spans do not matter.
    result = _score(["a a b"], ["aa b"])
    assert result.recall == 1 / 3 and result.precision == 1 / 2


def test_gnu_diff_discard_heuristic_is_replicated():
    # /usr/bin/diff -y (GNU 3.8) pairs nothing here: "p" occurs more than 5
    # times in the other file inside a run of unmatched lines, so diff
    # discards it, although a longest common subsequence would match it.
    gold = ["u1 u2 u3 p u4 u5 u6"]
    assert _score(gold, ["p p p p p p"], perl_compat=True).recall == 0.0
    assert _score(gold, ["p p p p p"], perl_compat=True).recall == 1 / 7


def test_read_dictionary_chops_like_perl(tmp_path):
    path = tmp_path / "words.utf8"
    path.write_bytes(b" a \r\nbc\nxyz")  # chop takes the last byte of the final line
    assert read_dictionary(path) == {b"a", b"bc", b"xy"}


def test_missing_file_error_names_the_file(tmp_path):
    gold = tmp_path / "gold.utf8"
    gold.write_text("a b\n", encoding="utf-8")
    missing = tmp_path / "no_such_system.utf8"
    with pytest.raises(FileNotFoundError, match="no_such_system.utf8"):
        score_files(gold, missing, gold)
    with pytest.raises(FileNotFoundError, match="no_such_words.utf8"):
        score_files(gold, gold, tmp_path / "no_such_words.utf8")
    with pytest.raises(FileNotFoundError, match="is a folder, not a file"):
        score_files(gold, tmp_path, gold)


def test_cli_prints_one_json_object(tmp_path):
    gold, system, words = tmp_path / "gold", tmp_path / "system", tmp_path / "words"
    gold.write_text("a bc d\n", encoding="utf-8")
    system.write_text("ab c d\n", encoding="utf-8")
    words.write_text("a\nd\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(gold), str(system), "--train-words", str(words)])
    assert result.exit_code == 0, result.output
    data = srsly.json_loads(result.stdout)
    assert set(data) == {
        "precision", "recall", "f1", "oov_rate", "oov_recall", "iv_recall", "true_words", "test_words"
    }
    assert (data["true_words"], data["test_words"], data["oov_recall"]) == (3, 3, 0.0)
    assert data["iv_recall"] == 0.5


def test_cli_missing_file_fails(tmp_path):
    gold = tmp_path / "gold"
    gold.write_text("a\n", encoding="utf-8")
    args = ["score", str(gold), str(tmp_path / "absent"), "--train-words", str(gold)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code != 0
    assert "absent" in result.output


@needs_perl_and_diff
def test_parity_on_perl_quirks(tmp_path, shared_data):
    """Hand-made input hitting the quirks: BOM, CRLF, U+3000 and Big5 spaces,
    a leading U+3000 (empty first word), system words that look like diff's
    gutter marks, words too long for diff -y's 61-column half line, invalid
    UTF-8, a dictionary whose last line has no newline, a system file ending
    early."""
    long_word = "x" * 61
    gold = tmp_path / "gold"
    gold.write_bytes(
        "\ufeff中国 人民\r\n\u3000他 说 | 了\r\n\r\n".encode("utf-8")
        + long_word.encode() + b"\xff"  # an invalid byte diff -y drops at column 61
        + f" a {'中' * 31} b\r\n甲\u3000乙 丙\r\n丁 戊\r\n".encode("utf-8")
    )
    system = tmp_path / "system"
    system.write_bytes(
        f"中国 人 民\n他 说 | 了\n废话\n{long_word}a {'中' * 31}b\n甲".encode("utf-8")
        + b"\xa1\x40"  # Big5 full-width space
        + "乙丙\n".encode("utf-8")
    )
    words = tmp_path / "words"
    words.write_bytes(f"中国\n说\n|\n{long_word}\n乙".encode("utf-8"))
    _assert_parity(shared_data / "sighan2005" / "score", words, gold, system)


@needs_perl_and_diff
@pytest.mark.parametrize("corpus", ["pku", "cityu"])
def test_parity_with_perl_on_jieba_output(tmp_path, shared_data, corpus):
    """First 600 lines of a SIGHAN 2005 test set (cityu: BOM and CRLF)."""
    folder = shared_data / "sighan2005"
    system = tmp_path / f"{corpus}.jieba.utf8"
    _jieba_segment(folder / corpus / "test.utf8", system, max_lines=600)
    _assert_corpus_parity(folder, corpus, system)


@pytest.mark.slow
@needs_perl_and_diff
@pytest.mark.parametrize("corpus", ["pku", "msr", "cityu", "as"])
def test_full_parity_with_perl_on_jieba_output(tmp_path, shared_data, corpus):
    folder = shared_data / "sighan2005"
    system = tmp_path / f"{corpus}.jieba.utf8"
    _jieba_segment(folder / corpus / "test.utf8", system)
    _assert_corpus_parity(folder, corpus, system)


# Issue 19, items 1-3: gold and system files that do not line up are an error
# (exit 1, the first differing line named on stderr), not a silent score.
GOLD = "中国 人民 银行\n他 说 好 。\n"  # 2 lines, 7 words


def _score_cli(tmp_path, system: bytes, *options):
    gold, system_path, words = tmp_path / "gold.utf8", tmp_path / "system.utf8", tmp_path / "words.utf8"
    gold.write_text(GOLD, encoding="utf-8")
    system_path.write_bytes(system)
    words.write_text("中国\n人民\n说\n", encoding="utf-8")
    args = ["score", str(gold), str(system_path), "--train-words", str(words), *options]
    return CliRunner().invoke(app, args)


@pytest.mark.parametrize(
    "system, line_no",
    [
        ("中国 人民 银行\n", 2),  # a line missing at the end
        ("中国 人民 银行\n他 说 好 。\n多余 的 行\n", 3),  # an extra line
        ("美国 人民 银行\n他 说 好 。\n", 1),  # other characters
        ("\n中国 人民 银行\n他 说 好 。\n", 1),  # a blank first line shifts the rest
        ("中国 人民 银行\n他 说 。\n", 2),  # a character dropped
    ],
)
def test_cli_misaligned_system_file_is_an_error_naming_the_line(tmp_path, system, line_no):
    result = _score_cli(tmp_path, system.encode("utf-8"))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"line {line_no}:" in result.stderr and "system.utf8" in result.stderr


def test_cli_perl_compat_keeps_the_perl_pairing(tmp_path):
    result = _score_cli(tmp_path, "中国 人民 银行\n".encode("utf-8"), "--perl-compat")
    assert result.exit_code == 0, result.stderr
    data = srsly.json_loads(result.stdout)
    assert (data["f1"], data["true_words"], data["test_words"]) == (1.0, 3, 3)


def test_cli_gbk_system_file_is_a_utf8_error(tmp_path):
    result = _score_cli(tmp_path, GOLD.encode("gbk"))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "system.utf8:1: not valid UTF-8" in result.stderr


def test_cli_empty_system_file_is_an_error_counting_both_sides(tmp_path):
    result = _score_cli(tmp_path, b"")
    assert result.exit_code == 1
    assert "gold.utf8 has 2 lines but" in result.stderr and "has 0" in result.stderr
    perl = _score_cli(tmp_path, b"", "--perl-compat")
    assert perl.exit_code == 1
    assert "0 line pairs read" in perl.stderr


def test_aligned_real_corpus_scores_without_error(shared_data):
    """Strict alignment accepts a real gold file against itself, resegmented."""
    gold = (shared_data / "sighan2005" / "pku" / "test_gold.utf8").read_bytes().splitlines(keepends=True)[:300]
    system = ["".join(line.decode("utf-8").split()).encode("utf-8") + b"\n" for line in gold]
    result = score_lines(gold, system, set())
    assert result.true_words == sum(len(line.split()) for line in gold)
    assert result.test_words == sum(1 for line in gold if line.split())
