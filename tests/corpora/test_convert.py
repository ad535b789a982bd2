"""Corpus -> DocBin conversion, the dev split, the word list and the CLI."""
import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_cws.corpora.convert import convert_corpus, dev_size
from spacy_cws.corpora.formats import CorpusFormatError, read_segmented

# 12 sentences (two blank lines among them), so dev (10%, rounded up) is 2.
TOY_LINES = [
    "上海 浦东 开发 与 法制 建设 同步",
    "新华社 上海 二月 十日 电",
    "",
    "上海 浦东 近年 来 颁布 实行 了 涉及 经济 的 法规",
    "这 是 上海 的 一 项 重要 工作",
    "浦东 开发 开放 是 一 项 振兴 上海 的 跨 世纪 工程",
    "\u3000",
    "因此 大量 出现 的 是 以前 不 曾 遇到 过 的 新 情况",
    "一 九 九 七 年",
    "ＡＢＣ 公司 和 ａ_b 的 １２３",
    "中国 进出口 银行",
    "据 统计",
    "世界 银行",
    "亚洲 开发 银行",
]


def _docs(path):
    return list(DocBin().from_disk(path).get_docs(Vocab()))


def _counts(report_output):
    return report_output.sentences, report_output.words, report_output.chars


@pytest.fixture
def toy_corpus(tmp_path):
    path = tmp_path / "toy.txt"
    path.write_bytes("\r\n".join(TOY_LINES).encode("utf-8") + b"\r\n")
    return path


@pytest.mark.parametrize(
    "n,fraction,expected",
    # 19,056 and 86,924: PKU and MSR training lines, whose greedyCWS dev
    # splits hold 1,906 and 8,693 lines.
    [(10, 0.1, 1), (30, 0.1, 3), (31, 0.1, 4), (1, 0.1, 1), (19056, 0.1, 1906), (86924, 0.1, 8693)],
)
def test_dev_size_rounds_up(n, fraction, expected):
    assert dev_size(n, fraction) == expected


def test_convert_round_trip(toy_corpus, tmp_path):
    out = tmp_path / "out" / "train.spacy"
    report = convert_corpus(toy_corpus, out, criterion="toy")
    sentences = [line.split() for line in TOY_LINES if line.strip()]
    docs = _docs(out)
    assert [[t.text for t in doc] for doc in docs] == sentences
    assert [doc.text for doc in docs] == ["".join(words) for words in sentences]
    assert all(not t.whitespace_ for doc in docs for t in doc)
    assert {doc._.cws_criterion for doc in docs} == {"toy"}
    assert (report.lines, report.blank_lines, report.criterion) == (14, 2, "toy")
    assert len(report.outputs) == 1 and report.outputs[0].path == out
    n_words = sum(map(len, sentences))
    assert _counts(report.outputs[0]) == (12, n_words, sum(len(doc.text) for doc in docs))
    assert report.words_output is None and report.word_types is None


def test_convert_dev_split_and_word_list(toy_corpus, tmp_path):
    train, dev, words = tmp_path / "train.spacy", tmp_path / "dev.spacy", tmp_path / "words.txt"
    report = convert_corpus(
        toy_corpus, train, criterion="toy", dev_output=dev, dev_fraction=0.1, words_output=words
    )
    sentences = [line.split() for line in TOY_LINES if line.strip()]
    train_words = [[t.text for t in doc] for doc in _docs(train)]
    dev_words = [[t.text for t in doc] for doc in _docs(dev)]
    # The last 10% (rounded up: 2 of 12), in file order, and nothing lost.
    assert dev_words == sentences[-2:]
    assert train_words == sentences[:-2]
    assert [o.path for o in report.outputs] == [train, dev]
    assert [o.sentences for o in report.outputs] == [10, 2]
    assert report.outputs[1].words == 5 and report.outputs[1].chars == 10
    # The word list holds the training words only ("世界" is in dev only).
    expected = sorted({w for ws in train_words for w in ws})
    assert words.read_bytes() == ("\n".join(expected) + "\n").encode("utf-8")
    assert "世界" not in expected and "ａ_b" in expected
    assert report.word_types == len(expected)


def test_convert_transform_applies_before_the_dev_split(toy_corpus, tmp_path):
    train, dev = tmp_path / "train.spacy", tmp_path / "dev.spacy"
    convert_corpus(toy_corpus, train, criterion="toy", dev_output=dev, transform=lambda sentences: sentences[:3])
    sentences = [line.split() for line in TOY_LINES if line.strip()]
    assert [[t.text for t in doc] for doc in _docs(train) + _docs(dev)] == sentences[:3]
    assert len(_docs(dev)) == 1
    with pytest.raises(ValueError, match="no sentence left to convert"):
        convert_corpus(toy_corpus, tmp_path / "none.spacy", criterion="toy", transform=lambda sentences: [])
    assert not (tmp_path / "none.spacy").exists()


def test_convert_errors_write_nothing(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes("甲 乙\n丙\n".encode("utf-8") + b"\x80\n")
    out = tmp_path / "train.spacy"
    with pytest.raises(CorpusFormatError, match=r"bad\.txt:3: "):
        convert_corpus(bad, out, criterion="x", words_output=tmp_path / "words.txt")
    assert list(tmp_path.iterdir()) == [bad]
    with pytest.raises(ValueError, match="dev_fraction"):
        convert_corpus(bad, out, criterion="x", dev_fraction=1.0)
    with pytest.raises(ValueError, match="criterion"):
        convert_corpus(bad, out, criterion="")


def _check_real(path, out, fmt, counts):
    """Convert a real corpus file and check its counts (MANIFEST.md) and Docs."""
    report = convert_corpus(path, out, fmt=fmt, criterion="real")
    assert _counts(report.outputs[0]) == counts
    assert report.blank_lines == 0
    docs = _docs(out)
    sentences = list(read_segmented(path, fmt))
    assert len(docs) == len(sentences)
    for doc, sentence in zip(docs, sentences):
        assert [t.text for t in doc] == sentence.words
        assert doc.text == "".join(sentence.words)
        assert doc._.cws_criterion == "real"


def test_convert_real_ctb6_dev(shared_data, tmp_path):
    _check_real(shared_data / "ctb6" / "dev.seg", tmp_path / "dev.spacy", "sighan", (1904, 51229, 83252))


def test_convert_real_zx_test_wordpos(shared_data, tmp_path):
    path = shared_data / "zx" / "test.zhuxian.wordpos"
    _check_real(path, tmp_path / "zx.spacy", "wordpos", (1394, 34355, 48075))


@pytest.mark.slow
def test_convert_real_ctb6_train(shared_data, tmp_path):
    # About 20 s: converting takes about 11 s, reading the Docs back the rest.
    path = shared_data / "ctb6" / "train.seg"
    _check_real(path, tmp_path / "train.spacy", "sighan", (24416, 678811, 1120033))


@pytest.fixture
def cli():
    from typer.testing import CliRunner

    from spacy_cws.cli import app

    runner = CliRunner()
    return lambda *args: runner.invoke(app, ["convert", *map(str, args)])


def test_cli_convert(cli, toy_corpus, tmp_path):
    train, dev, words = tmp_path / "train.spacy", tmp_path / "dev.spacy", tmp_path / "words.txt"
    result = cli(toy_corpus, train, "--dev-output", dev, "--words-output", words)
    assert result.exit_code == 0, result.output
    # No --criterion: the input file's stem.
    assert {doc._.cws_criterion for doc in _docs(train) + _docs(dev)} == {"toy"}
    assert len(_docs(dev)) == 2 and words.exists()
    assert "Skipped 2 blank line(s) of 14" in result.output


@pytest.mark.parametrize(
    "data,args,message",
    [
        (None, (), "Input file not found"),
        (b"a b\n", ("--format", "conll"), "Unknown format 'conll'"),
        (b"a b\nc\n\xe4\xb8\n", (), "bad.txt:3: not valid UTF-8"),
        ("一_CD 二\n".encode("utf-8"), ("--format", "wordpos"), "bad.txt:1: token '二'"),
        (b"a b\n", ("--dev-fraction", "0"), "dev_fraction must be between 0 and 1"),
    ],
)
def test_cli_convert_fails_with_message(cli, tmp_path, data, args, message):
    path = tmp_path / "bad.txt"
    if data is not None:
        path.write_bytes(data)
    result = cli(path, tmp_path / "out.spacy", "--criterion", "x", *args)
    assert result.exit_code == 1
    # wasabi wraps long messages at 80 columns.
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out.spacy").exists()
