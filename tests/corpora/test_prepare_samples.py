"""``prepare`` for the corpora built from public files: pku_pfr (People's Daily
1998 less the SIGHAN PKU sample, which is its dev set) and msr_sample."""
import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.evaluation_files import list_text_lines
from spacy_cws.corpora.formats import read_segmented
from spacy_cws.corpora.sentences import split_sentences

runner = CliRunner()

# Two PFR paragraphs (GBK, CRLF): the first sentence is the dev sample's; 放在 is
# not in the official word list (SIGHAN wrote 放 在).
PFR = (
    "19980101-01-001-001/m  迈向/v  充满/v  希望/n  的/u  新/a  世纪/n  。/w  "
    "他/r  说/v  ：/w  “/w  放在/v  这里/r  。/w  ”/w  \r\n"
    "\r\n"
    "19980101-01-001-002/m  [中国/ns  政府/n]nt  提出/v  新/a  方案/n  。/w  \r\n"
    "\r\n"
    "19980130-02-003-001/m  今天/t  下雨/v  。/w  \r\n"  # a held-out day: kept out of training
)
DEV = "迈向 充满 希望 的 新 世纪 。"  # as SIGHAN's sample writes it: a character and its tag a line
WORD_LIST = "迈向 充满 希望 的 新 世纪 。 他 说 ： “ ” 放 在 这里 中国 政府 提出 方案"
TEST = ["中国 政府 提出 新 方案 。", "他 说 ： “ 放 在 这里 。 ”"]
# The January + February folds: a January paragraph and the held-out day again (both known), and a
# February paragraph, whose 常委会 the word list lacks and which stays whole (the list is January's).
FOLDS = ["[中国 政府] 提出 新 方案 。", "今天 下雨 。", "[全国 人大] 常委会 今天 举行 会议 。"]


def _write_folds(files, assets, lines):
    for number, relative in enumerate(files.more_train):
        path = assets / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines if number == 0), encoding="utf-8")


def _bies(sentences):
    def tags(word):
        return "S" if len(word) == 1 else "B" + "I" * (len(word) - 2) + "E"

    return "".join(
        "".join(f"{char}\t{tag}\n" for word in line.split() for char, tag in zip(word, tags(word))) + "\n"
        for line in sentences
    )


def _docs(path):
    return list(DocBin().from_disk(path).get_docs(Vocab()))


def _words(path):
    return [" ".join(t.text for t in doc) for doc in _docs(path)]


def _prepare(name, assets, out):
    result = runner.invoke(app, ["prepare", name, str(assets), str(out)])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # wasabi wraps long lines


def _write(files, assets, field, data: bytes):
    path = files.path(assets, field)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_prepare_pku_pfr(tmp_path):
    files, assets, out = get_corpus("pku_pfr"), tmp_path / "assets", tmp_path / "corpus"
    _write(files, assets, "train", PFR.encode("gbk"))
    _write(files, assets, "dev", _bies([DEV]).encode("utf-8"))
    _write(files, assets, "train_words", "".join(w + "\n" for w in WORD_LIST.split()).encode("utf-8"))
    _write(files, assets, "test_gold", "".join(line + "\n" for line in TEST).encode("utf-8"))
    _write(files, assets, "test_raw", "".join(line.replace(" ", "") + "\n" for line in TEST).encode("utf-8"))
    _write_folds(files, assets, FOLDS)
    output = _prepare("pku_pfr", assets, out)
    # The held-out day dropped, cut into sentences, 放在 split, February added, the dev sentence taken out;
    # every Doc names pku.
    assert _words(out / "train.spacy") == [
        "他 说 ： “ 放 在 这里 。 ”", "中国 政府 提出 新 方案 。", "全国 人大 常委会 今天 举行 会议 。"
    ]
    assert _words(out / "dev.spacy") == [DEV]
    assert _words(out / "test.spacy") == TEST
    assert {doc._.cws_criterion for name in ("train", "dev", "test") for doc in _docs(out / f"{name}.spacy")} == {"pku"}
    assert (out / "train_words.txt").read_bytes() == files.path(assets, "train_words").read_bytes()
    assert (out / "dev_found_gold.utf8").read_text(encoding="utf-8") == DEV + "\n"
    assert (out / "dev_found_train.utf8").read_text(encoding="utf-8") == DEV + "\n"
    assert "Held out 1 training line(s) dated 19980129, 19980130, 19980131" in output
    assert "Added 1 paragraph(s) of pku_pfr1998/cv-1-filter_test.txt" in output
    assert "Cut 3 training line(s) into 4 sentence(s)" in output
    assert "Split 1 training word(s) that sighan2005/pku/training_words.utf8 lacks" in output
    assert "Found 1 of the 1 dev sentence(s) (100.00% of their 11 characters)" in output


@pytest.mark.parametrize("field,data,line", [("train", "迈向/v  充满/v\r\n", 1), ("dev", "迈\tB\n\n", 1)])
def test_prepare_pku_pfr_names_the_bad_line(tmp_path, field, data, line):
    files, assets = get_corpus("pku_pfr"), tmp_path / "assets"
    for name, good in (("train", PFR.encode("gbk")), ("dev", _bies([DEV]).encode("utf-8"))):
        _write(files, assets, name, good)
    _write(files, assets, field, data.encode("gbk" if field == "train" else "utf-8"))
    for name in ("train_words", "test_gold", "test_raw"):
        _write(files, assets, name, "中国\n".encode("utf-8"))
    _write_folds(files, assets, FOLDS)
    result = runner.invoke(app, ["prepare", "pku_pfr", str(assets), str(tmp_path / "corpus")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{files.path(assets, field)}:{line}:" in " ".join(result.output.split())
    assert not (tmp_path / "corpus" / "train.spacy").exists()


def test_prepare_msr_sample_holds_out_the_last_tenth(tmp_path):
    files, assets, out = get_corpus("msr_sample"), tmp_path / "assets", tmp_path / "corpus"
    train = [f"第{n} 句 话 。" for n in range(10)]
    _write(files, assets, "train", _bies(train).encode("utf-8"))
    _write(files, assets, "test_gold", "第 十 句 话 。\n".encode("utf-8"))
    _write(files, assets, "test_raw", "第十句话。\n".encode("utf-8"))
    _prepare("msr_sample", assets, out)
    assert _words(out / "train.spacy") == train[:9] and _words(out / "dev.spacy") == train[9:]
    assert {doc._.cws_criterion for name in ("train", "dev", "test") for doc in _docs(out / f"{name}.spacy")} == {"msr"}
    # OOV against the words the model is trained on: the sample's, not the official list.
    assert (out / "train_words.txt").read_text(encoding="utf-8").split() == sorted({"句", "话", "。"} | {
        f"第{n}" for n in range(9)})


@pytest.mark.slow
def test_prepare_real_pku_pfr(shared_data, tmp_path):
    # About 110 s on 2 busy cores: 86,593 training Docs (January and February).
    files, out = get_corpus("pku_pfr"), tmp_path / "pku_pfr"
    _prepare("pku_pfr", shared_data, out)
    dev = list(read_segmented(files.path(shared_data, "dev"), "bies"))
    assert [doc.text for doc in _docs(out / "dev.spacy")] == ["".join(s.words) for s in dev]
    train = _docs(out / "train.spacy")
    assert {doc._.cws_criterion for doc in train} == {"pku"}
    assert not {doc.text for doc in train}.intersection("".join(s.words) for s in dev)
    last_day = list(read_segmented(files.path(shared_data, "train"), "pfr"))[-200:]  # the file is in date order
    held_out = {"".join(words) for line in last_day for words in split_sentences(line.words) if len(words) > 12}
    assert len(held_out) > 100 and not {doc.text for doc in train} & held_out
    assert len(_docs(out / "test.spacy")) == 1944  # SIGHAN PKU test lines (MANIFEST.md)
    assert list_text_lines(out / "test_input.utf8") == list_text_lines(files.path(shared_data, "test_raw"))
    scored = runner.invoke(app, ["score", str(out / "dev_found_gold.utf8"), str(out / "dev_found_train.utf8"),
                                 "--train-words", str(out / "train_words.txt")])
    assert scored.exit_code == 0, scored.output


@pytest.mark.slow
def test_prepare_real_msr_sample(shared_data, tmp_path):
    # About 20 s on 2 busy cores.
    files, out = get_corpus("msr_sample"), tmp_path / "msr_sample"
    _prepare("msr_sample", shared_data, out)
    sample = ["".join(s.words) for s in read_segmented(files.path(shared_data, "train"), "bies")]
    train, dev = _docs(out / "train.spacy"), _docs(out / "dev.spacy")
    assert [doc.text for doc in train + dev] == sample
    assert len(dev) == 1120  # the last tenth of 11,200 (MANIFEST.md)
    assert {doc._.cws_criterion for doc in train + dev} == {"msr"}
    assert len(_docs(out / "test.spacy")) == 3985  # SIGHAN MSR test lines
