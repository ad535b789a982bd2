"""export-onnx's calibration text: a UTF-8 file a sentence a line, or a DocBin
such as a prepared corpus's dev.spacy, whose Docs' texts are the sentences."""
import warnings

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.cli.export_onnx import calibration_texts


def _sentences(shared_data, n):
    lines = (shared_data / "ctb6" / "dev.seg").read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip()][:n]


def test_a_docbin_gives_its_docs_texts_as_a_text_file_gives_its_lines(shared_data, tmp_path):
    nlp = spacy.blank("zh")
    sentences = _sentences(shared_data, 40)
    docs = DocBin(docs=[Doc(nlp.vocab, words=words, spaces=[False] * len(words)) for words in sentences])
    docs.to_disk(tmp_path / "dev.spacy")
    (tmp_path / "dev.txt").write_text("\n\n".join("".join(words) for words in sentences) + "\n", encoding="utf-8")
    texts = calibration_texts(tmp_path / "dev.spacy", nlp)
    assert texts == ["".join(words) for words in sentences]
    assert calibration_texts(tmp_path / "dev.txt", nlp) == texts


def test_the_options_choose_the_graph_and_the_copy_has_an_up_to_date_config(tmp_path):
    """--tables and --matmuls reach Segmenter.export_onnx (the cfg records them);
    the copy of a 0.6.1 package no longer sets the settings that moved out of the
    component's block, nor the earlier default patterns: it loads without a warning."""
    if not spacy.util.is_package("zh_cws_gd_sm"):
        pytest.skip("zh_cws_gd_sm is not installed: README's install command installs it from models/")
    args = ["export-onnx", "zh_cws_gd_sm", str(tmp_path / "out"), "--tables", "int8", "--matmuls", "int8"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "int8 tables, int8 products" in result.stdout
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        segmenter = spacy.load(tmp_path / "out").get_pipe("gd_segmenter")
    assert not [str(w.message) for w in caught if "gd_segmenter" in str(w.message)]
    assert (segmenter.cfg["onnx_tables"], segmenter.cfg["onnx_matmuls"], segmenter.inference_precision) == ("int8",) * 3
    assert segmenter.cfg["bigram_min_count"] == 3  # saved with the component
    text = "新华社北京二月十二日电"
    assert "".join(t.text for t in spacy.load(tmp_path / "out")(text)) == text


def test_a_spacy_file_that_is_no_docbin_is_named(tmp_path):
    if not spacy.util.is_package("zh_cws_gd_sm"):
        pytest.skip("zh_cws_gd_sm is not installed: README's install command installs it from models/")
    (tmp_path / "dev.spacy").write_text("新华社北京电\n", encoding="utf-8")
    args = ["export-onnx", "zh_cws_gd_sm", str(tmp_path / "out"), "--matmuls", "int8-static", "--calibration", str(tmp_path / "dev.spacy")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "dev.spacy is not a DocBin" in result.stderr
    assert not (tmp_path / "out").exists()
