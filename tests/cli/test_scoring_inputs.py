"""``evaluate``, ``score`` and ``report`` refuse inputs they cannot score
truthfully: a gold file that does not match the test input, a training word
list that is not UTF-8 or empty (issue 39, items 3, 6 and 10), a test.spacy
that does not hold the gold's sentences (issue 50, item 1)."""
import importlib.util
import os

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from typer.testing import CliRunner

from spacy_cws.cli import app

SHIPPED_SMALL = "zh_cws_gd_sm"


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def assert_refused(result, *named):
    """One message on stderr naming each of ``named``, exit code 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    for text in named:
        assert text in result.stderr
    assert result.stdout == ""


@pytest.fixture(scope="module")
def ctb6_gold(shared_data):
    """The first 30 CTB6 test sentences, words separated by spaces."""
    return (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n")[:30]


@pytest.fixture(scope="module")
def words_file(shared_data, tmp_path_factory):
    """The first 2,000 words of the PKU training word list (UTF-8)."""
    lines = (shared_data / "sighan2005" / "pku" / "training_words.utf8").read_bytes().split(b"\n")[:2000]
    path = tmp_path_factory.mktemp("words") / "train_words.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def write_gold(path, sentences):
    path.write_text("".join(sentence + "\n" for sentence in sentences), encoding="utf-8")
    return path


def prepared_corpus(folder, sentences, gold_sentences, words_file, doc_sentences=None):
    """A corpus folder as ``prepare`` writes it, its gold lines ``gold_sentences``
    and its test.spacy Docs ``doc_sentences`` (default: ``sentences``)."""
    doc_sentences = sentences if doc_sentences is None else doc_sentences
    folder.mkdir()
    (folder / "test_input.utf8").write_text("".join(s.replace(" ", "") + "\n" for s in sentences), encoding="utf-8")
    write_gold(folder / "test_gold.utf8", gold_sentences)
    (folder / "train_words.txt").write_bytes(words_file.read_bytes())
    vocab = spacy.blank("zh").vocab
    docs = DocBin(docs=[Doc(vocab, words=s.split(), spaces=[False] * len(s.split())) for s in doc_sentences])
    docs.to_disk(folder / "test.spacy")
    return folder


def evaluate(corpus, tmp_path):
    """``evaluate`` of the shipped small pipeline on ``corpus``: (result, metrics path, system output path)."""
    if importlib.util.find_spec(SHIPPED_SMALL) is None:
        pytest.skip(f"{SHIPPED_SMALL} is not installed")
    metrics, system = tmp_path / "metrics.json", tmp_path / "system.seg"
    return invoke("evaluate", SHIPPED_SMALL, corpus, "-o", metrics, "--system-output", system), metrics, system


def test_evaluate_refuses_a_truncated_gold_file(ctb6_gold, words_file, tmp_path):
    """Item 3: a gold file with 10 of the input's 30 lines was scored on its
    first 10 lines, exit 0; score already refused the same mismatch."""
    corpus = prepared_corpus(tmp_path / "corpus", ctb6_gold, ctb6_gold[:10], words_file)
    result, metrics, system = evaluate(corpus, tmp_path)
    assert_refused(result, "test_gold.utf8 has 10 lines but", "test_input.utf8 has 30")
    assert not metrics.exists() and not system.exists()


def test_evaluate_refuses_a_shifted_gold_file(ctb6_gold, words_file, tmp_path):
    """Issue 50, item 1: a gold file with the input's line count but its first
    line moved to the end was scored (F1 0.14, exit 0); score refused the pair."""
    corpus = prepared_corpus(tmp_path / "corpus", ctb6_gold, ctb6_gold[1:] + ctb6_gold[:1], words_file)
    result, metrics, system = evaluate(corpus, tmp_path)
    assert_refused(result, "line 1: ", "test_input.utf8 holds other characters than", "test_gold.utf8")
    assert not metrics.exists() and not system.exists()


@pytest.mark.parametrize("docs", ["fewer", "other"])
def test_evaluate_refuses_test_docs_that_are_not_the_gold_sentences(ctb6_gold, words_file, tmp_path, docs):
    """Issue 50, item 1: with a test.spacy of 20 of the 30 sentences, or of 30
    other sentences, spaCy's token_f was computed on other text, exit 0."""
    doc_sentences = ctb6_gold[:20] if docs == "fewer" else ctb6_gold[10:] + ctb6_gold[:10]
    corpus = prepared_corpus(tmp_path / "corpus", ctb6_gold, ctb6_gold, words_file, doc_sentences)
    result, metrics, _ = evaluate(corpus, tmp_path)
    named = "test.spacy holds 20 Docs but" if docs == "fewer" else "test.spacy: Doc 1 is"
    assert_refused(result, named, "test_gold.utf8", "run the prepare command again")
    assert not metrics.exists()


@pytest.mark.parametrize("problem", ["gbk", "empty"])
@pytest.mark.parametrize("command", ["score", "report"])
def test_train_words_must_be_utf8_and_not_empty(ctb6_gold, words_file, tmp_path, command, problem):
    """Item 6: a GBK or empty --train-words gave oov_rate 1.0 and exit 0;
    the same files as gold or system are refused, and so is a word list now."""
    gold = write_gold(tmp_path / "gold.utf8", ctb6_gold)
    words = tmp_path / f"{problem}_words.txt"
    words.write_bytes(words_file.read_text(encoding="utf-8").encode("gbk") if problem == "gbk" else b"")
    args = [gold, gold, "--train-words", words] + (["-o", tmp_path / "report"] if command == "report" else [])
    named = "gbk_words.txt:1: not valid UTF-8" if problem == "gbk" else "empty_words.txt holds no words"
    assert_refused(invoke(command, *args), named)
    assert not (tmp_path / "report").exists()


def test_score_reads_a_pipe(ctb6_gold, words_file, tmp_path):
    """Item 10: ``score GOLD <(cat SYSTEM)`` said "/dev/fd/N not found"; segment reads pipes."""
    gold = write_gold(tmp_path / "gold.utf8", ctb6_gold)
    read_end, write_end = os.pipe()
    os.write(write_end, gold.read_bytes())  # 30 lines fit in the pipe's buffer
    os.close(write_end)
    try:
        result = invoke("score", gold, f"/dev/fd/{read_end}", "--train-words", words_file)
    finally:
        os.close(read_end)
    assert result.exit_code == 0, result.output
    assert '"f1":1.0' in result.stdout
