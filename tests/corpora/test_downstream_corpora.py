"""Resume / MSRA NER and ChnSentiCorp -> DocBin: readers and CLI on the real files."""
import lzma

import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.corpora.formats import CorpusFormatError
from spacy_cws.corpora.sentiment import read_sentiment
from spacy_cws.corpora.tagged_characters import read_tagged_characters, sentence_doc

runner = CliRunner()


def _entities_of_tags(path):
    """Entities counted as the MANIFEST counts them: B- and S- tags."""
    text = path.read_text(encoding="utf-8")
    return sum(1 for line in text.splitlines() if line.split()[-1:] and line.split()[-1][:2] in ("B-", "S-"))


@pytest.mark.parametrize("split", ["dev", "test"])
def test_resume_entities_all_kept(shared_data, split):
    path = shared_data / "ner" / "resume" / f"{split}.char.bmes"
    sentences = list(read_tagged_characters(path))
    assert sum(len(s.entities) for s in sentences) == _entities_of_tags(path)
    assert sum(s.orphans for s in sentences) == 0
    vocab = Vocab()
    for sentence in sentences:
        doc = sentence_doc(vocab, sentence)
        assert doc.text == "".join(sentence.characters)
        assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == sentence.entities


def test_resume_train_entity_cut_by_a_sentence_break_is_counted(shared_data):
    sentences = list(read_tagged_characters(shared_data / "ner" / "resume" / "train.char.bmes"))
    assert len(sentences) == 3821
    orphaned = [s for s in sentences if s.orphans]
    # Lines 62392 and 64414 continue an ORG (M-ORG) after a blank line: each begins an ORG there.
    assert [s.line_no for s in orphaned] == [62392, 64414]
    assert [s.entities[0] for s in orphaned] == [(0, 8, "ORG"), (0, 3, "ORG")]
    assert sum(len(s.entities) for s in sentences) == 13438 + sum(s.orphans for s in sentences)


def test_msra_bio_reads_like_conlleval(shared_data):
    sentences = list(read_tagged_characters(shared_data / "ner" / "msra_bert_wwm" / "dev.txt"))
    assert len(sentences) == 4631
    assert sum(len(s.characters) for s in sentences) == 172601
    first = sentences[0]
    assert "".join(first.characters[:4]) == "中共中央"
    assert first.entities[0] == (0, 4, "ORG")


def test_bad_tags_name_file_and_line(tmp_path):
    path = tmp_path / "bad.bmes"
    path.write_text("高 B-NAME\n勇 X-NAME\n\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"bad.bmes:2: unknown tag 'X-NAME'"):
        list(read_tagged_characters(path))
    path.write_text("高勇 O\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r":1: expected 'CHARACTER TAG'"):
        list(read_tagged_characters(path))


def test_bio_entities_end_at_o_next_b_and_sentence_end(tmp_path):
    path = tmp_path / "toy.bio.xz"
    path.write_bytes(lzma.compress("北 B-LOC\n京 I-LOC\n上 B-LOC\n海 I-LOC\n的 O\n人 B-PER\n".encode("utf-8")))
    (sentence,) = read_tagged_characters(path)
    assert sentence.entities == [(0, 2, "LOC"), (2, 4, "LOC"), (5, 6, "PER")]


def test_chnsenticorp_text_kept_exactly(shared_data):
    path = shared_data / "textcat" / "chnsenticorp" / "dev.tsv"
    rows = list(read_sentiment(path))
    assert len(rows) == 1200
    raw = path.read_text(encoding="utf-8").splitlines()[1:]
    assert [text for _, text, _ in rows] == [line.split("\t", 1)[1] for line in raw]
    assert {label for _, _, label in rows} == {"POSITIVE", "NEGATIVE"}


def test_convert_cli_writes_docbins(shared_data, tmp_path):
    result = runner.invoke(
        app, ["convert-ner", str(shared_data / "ner/resume/dev.char.bmes"), str(tmp_path / "ner.spacy")]
    )
    assert result.exit_code == 0, result.output
    docs = list(DocBin().from_disk(tmp_path / "ner.spacy").get_docs(Vocab()))
    assert len(docs) == 463 and sum(len(d.ents) for d in docs) == 1497
    result = runner.invoke(
        app, ["convert-sentiment", str(shared_data / "textcat/chnsenticorp/test.tsv"), str(tmp_path / "tc.spacy")]
    )
    assert result.exit_code == 0, result.output
    docs = list(DocBin().from_disk(tmp_path / "tc.spacy").get_docs(Vocab()))
    assert len(docs) == 1200
    assert all(sorted(d.cats.values()) == [0.0, 1.0] for d in docs)
    missing = runner.invoke(app, ["convert-sentiment", str(tmp_path / "nope.tsv"), str(tmp_path / "x.spacy")])
    assert missing.exit_code == 1 and "not found" in missing.output


def test_convert_cli_holds_out_the_last_sentences_as_dev(shared_data, tmp_path):
    source = shared_data / "ner/resume/dev.char.bmes"
    result = runner.invoke(
        app,
        [
            "convert-ner",
            str(source),
            str(tmp_path / "train.spacy"),
            "--dev-output",
            str(tmp_path / "dev.spacy"),
            "--dev-size",
            "63",
        ],
    )
    assert result.exit_code == 0, result.output
    train, dev = (list(DocBin().from_disk(tmp_path / f"{name}.spacy").get_docs(Vocab())) for name in ("train", "dev"))
    assert (len(train), len(dev)) == (400, 63)
    sentences = list(read_tagged_characters(source))
    assert [d.text for d in train + dev] == ["".join(s.characters) for s in sentences]
    assert sum(len(d.ents) for d in train + dev) == 1497
    alone = runner.invoke(app, ["convert-ner", str(source), str(tmp_path / "x.spacy"), "--dev-size", "10"])
    assert alone.exit_code == 1 and "--dev-output" in alone.output
    too_many = runner.invoke(
        app,
        [
            "convert-ner",
            str(source),
            str(tmp_path / "x.spacy"),
            "--dev-output",
            str(tmp_path / "y.spacy"),
            "--dev-size",
            "463",
        ],
    )
    assert too_many.exit_code == 1 and "no training sentences" in too_many.output


def test_sentiment_bad_label(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("label\ttext_a\n2\t很好\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"bad.tsv:2: expected '0\|1<TAB>text'"):
        list(read_sentiment(path))
