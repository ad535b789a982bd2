import pickle

import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from spacy_cws.features.chunking import chunk_spans
from spacy_cws.segmenter.merge_words import SegmentedText

from ..segmentation_data import MODEL, SENTENCES, blank_pipeline, make_examples


def _words(nlp, texts, batch_size=8):
    return [[t.text for t in doc] for doc in nlp.pipe(texts, batch_size=batch_size)]


def test_overfitting_IO(trained_nlp, tmp_path):
    texts = ["".join(s.split()) for s in SENTENCES]
    predicted = _words(trained_nlp, texts)
    assert predicted == [s.split() for s in SENTENCES]
    scores = trained_nlp.evaluate(make_examples(trained_nlp))
    assert scores["token_f"] == 1.0

    trained_nlp.to_disk(tmp_path / "pipeline")
    from_disk = spacy.load(tmp_path / "pipeline")
    assert _words(from_disk, texts) == predicted

    from_bytes = blank_pipeline()
    from_bytes.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256})
    from_bytes.from_bytes(trained_nlp.to_bytes())
    assert _words(from_bytes, texts) == predicted

    unpickled = pickle.loads(pickle.dumps(trained_nlp))
    assert _words(unpickled, texts) == predicted


def test_predictions_do_not_depend_on_batch_size(trained_nlp):
    texts = ["".join(s.split()) for s in SENTENCES] * 3 + ["今天北京天气很好，新华社记者报道。" * 9]
    reference = _words(trained_nlp, texts, batch_size=1)
    for batch_size in (2, 7, 64):
        assert _words(trained_nlp, texts, batch_size=batch_size) == reference


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\n\n\t ",
        "　",  # U+3000 full-width space
        "Hello, world! 12345 3.14",
        "😀👍🏽🇨🇳 表情",
        "第一行\n第二行\r\n第三行",
        "  前导和尾随空格  ",
        "龘靐齉爩",  # characters never seen in training
        "a\u2028b\u00a0c\x1cd",
        "边境城市" * 1250,  # a 5,000-character line, longer than max_length
    ],
)
def test_text_is_never_lost(trained_nlp, text):
    doc = trained_nlp(text)
    assert doc.text == text
    for token in doc:
        assert token.text == text[token.idx : token.idx + len(token.text)]
        assert token.is_space or not any(c.isspace() for c in token.text)


def test_long_text_is_split_and_reassembled(trained_nlp):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    text = "".join(SENTENCES[1].split()) * 40  # far over max_length = 64 units
    doc = trained_nlp(text)
    assert doc.text == text
    view = segmenter.normaliser(text)
    spans = chunk_spans(view.symbols, segmenter.cfg["max_length"])
    assert len(spans) > 1
    cuts = {int(view.starts[start]) for start, _ in spans[1:]}
    assert cuts <= {token.idx for token in doc}  # every cut is a word boundary,
    assert all(text[cut - 1] == "。" for cut in cuts)  # placed after a clause end


def test_whitespace_is_kept_and_never_a_word_error(trained_nlp):
    text = "今天 天气  很好\n"
    doc = trained_nlp(text)
    assert doc.text == text
    assert all(" " not in t.text or t.is_space for t in doc)


def test_initialize_examples():
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL})
    examples = make_examples(nlp)
    nlp.initialize(get_examples=lambda: examples)
    with pytest.raises(TypeError):
        nlp.initialize(get_examples=lambda: None)
    with pytest.raises(TypeError):
        nlp.initialize(get_examples=examples)


def test_no_data():
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL})
    empty = [Example(nlp.make_doc(""), Doc(nlp.vocab, words=[]))]
    with pytest.raises(ValueError, match="no characters"):
        nlp.initialize(get_examples=lambda: empty)


def test_untrained_component_is_a_clear_error():
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL})
    with pytest.raises(ValueError, match="no trained model"):
        nlp("今天天气很好")


def test_empty_batch_updates_nothing(trained_nlp):
    losses = trained_nlp.get_pipe("gd_segmenter").update([], losses={})
    assert losses == {"gd_segmenter": 0.0}


def test_get_loss_rejects_mismatched_texts(trained_nlp):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    reference = Doc(trained_nlp.vocab, words=["今天"], spaces=[False])
    example = Example(trained_nlp.make_doc("明天"), reference)
    with pytest.raises(ValueError):
        segmenter.update([example])


def test_wrong_tokenizer_is_a_clear_error(trained_nlp):
    segmenter = trained_nlp.get_pipe("gd_segmenter")
    doc = Doc(trained_nlp.vocab, words=["今天天", "气很好"], spaces=[False, False])
    segmented = [SegmentedText(doc.text, numpy.array([[0, 2], [2, 4], [4, 6]]))]
    with pytest.raises(ValueError, match="CharPretokenizer"):
        segmenter.set_annotations([doc], segmented)


def test_missing_model_directory_parts_are_named(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "pipeline")
    (tmp_path / "pipeline" / "gd_segmenter" / "model").unlink()
    with pytest.raises(FileNotFoundError, match="'model' is missing"):
        spacy.load(tmp_path / "pipeline")
    with pytest.raises(OSError):
        spacy.load(tmp_path / "no-such-pipeline")


def test_segmenter_as_tokenizer_gives_the_same_words(trained_nlp, tmp_path):
    from spacy_cws.segmenter.segmenter_tokenizer import SegmenterTokenizer, segmenter_as_tokenizer

    texts = ["".join(s.split()) for s in SENTENCES] + ["今天 天气\n很好 ", ""]
    expected = _words(trained_nlp, texts)
    converted = segmenter_as_tokenizer(trained_nlp)
    assert isinstance(converted.tokenizer, SegmenterTokenizer)
    assert converted.pipe_names == []
    assert [[t.text for t in converted(text)] for text in texts] == expected
    assert [[t.text for t in doc] for doc in converted.tokenizer.pipe(texts, batch_size=3)] == expected
    converted.to_disk(tmp_path / "tokenizer-pipeline")
    reloaded = spacy.load(tmp_path / "tokenizer-pipeline")
    assert [[t.text for t in reloaded(text)] for text in texts] == expected
    assert [doc.text for doc in reloaded.tokenizer.pipe(texts)] == texts
    with pytest.raises(ValueError, match="no component"):
        segmenter_as_tokenizer(converted)


def test_corrupt_model_files_are_named(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "pipeline")
    model_file = tmp_path / "pipeline" / "gd_segmenter" / "model"
    model_file.write_bytes(model_file.read_bytes()[:1000])
    with pytest.raises(ValueError, match="corrupt") as excinfo:
        spacy.load(tmp_path / "pipeline")
    assert str(model_file) in str(excinfo.value)
    (tmp_path / "pipeline" / "gd_segmenter" / "cfg").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        spacy.load(tmp_path / "pipeline")
