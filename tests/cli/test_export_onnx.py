"""export-onnx's calibration text: a UTF-8 file a sentence a line, or a DocBin
such as a prepared corpus's dev.spacy, whose Docs' texts are the sentences;
where it writes (never the source, a file, or an existing folder without
--force), the meta.json it writes, a pipeline without the segmenter, and the
options that choose the graph."""
import pickle
import warnings

import pytest
import spacy
import srsly
from spacy.tokens import Doc, DocBin
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.cli.export_onnx import calibration_texts

pytest.importorskip("onnx")


def export(*args):
    return CliRunner().invoke(app, ["export-onnx", *[str(arg) for arg in args]])


def assert_refused(result, named):
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert named in result.stderr


@pytest.fixture(scope="module")
def source(trained_nlp, tmp_path_factory):
    """The tiny trained pipeline on disk, with the meta.json of the shipped zh_cws_gd_sm (its scores among it)."""
    if not spacy.util.is_package("zh_cws_gd_sm"):
        pytest.skip("zh_cws_gd_sm is not installed: README's install command installs it from models/")
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.meta = srsly.read_json(spacy.util.get_package_path("zh_cws_gd_sm") / "meta.json")
    path = tmp_path_factory.mktemp("source") / "pipeline"
    nlp.to_disk(path)
    return path


def _files(folder):
    return {path.relative_to(folder): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


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
    args = [
        "export-onnx",
        "zh_cws_gd_sm",
        str(tmp_path / "out"),
        "--matmuls",
        "int8-static",
        "--calibration",
        str(tmp_path / "dev.spacy"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "dev.spacy is not a DocBin" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_existing_output_needs_force_and_is_replaced_whole(source, tmp_path):
    output = tmp_path / "out"
    spacy.load(source).to_disk(output)  # an earlier output, with an adapted pipeline's extra files
    (output / "adaptation.json").write_text("{}", encoding="utf-8")
    (output / "domain_words.txt").write_text("张小凡 3\n", encoding="utf-8")
    assert_refused(export(source, output, "--matmuls", "float32"), "exists: pass --force")
    assert (output / "domain_words.txt").is_file()
    result = export(source, output, "--matmuls", "float32", "--force")
    assert result.exit_code == 0, result.output
    assert not (output / "adaptation.json").exists() and not (output / "domain_words.txt").exists()
    assert (output / "gd_segmenter" / "graph.onnx").is_file()
    # Its own name and no scores it did not earn; the pipeline it was made from.
    source_meta, meta = srsly.read_json(source / "meta.json"), srsly.read_json(output / "meta.json")
    assert "performance" in source_meta and "spacy_cws_test_scores" in source_meta
    assert meta["name"] == f"{source_meta['name']}_onnx"
    assert not {"performance", "spacy_cws_test_scores", "spacy_cws_speed"} & set(meta)
    assert meta["spacy_cws_source"] == {
        "name": source_meta["name"], "version": source_meta["version"], "command": "spacy_cws export-onnx"
    }
    assert f"{source_meta['version']}" in meta["description"] and "F1" not in meta["description"]
    assert meta["license"] == source_meta["license"]
    loaded = spacy.load(output)
    assert loaded.meta["name"] == meta["name"] and loaded.get_pipe("gd_segmenter").has_graph


def test_the_source_a_folder_inside_it_and_a_file_are_never_written(source, tmp_path):
    before = _files(source)
    for force in ([], ["--force"]):
        assert_refused(export(source, source, "--tables", "int4", *force), "source pipeline")
        assert_refused(export(source, source / "gd_segmenter" / "copy", *force), "source pipeline")
    assert _files(source) == before
    a_file = tmp_path / "pipeline.onnx"
    a_file.write_text("keep me", encoding="utf-8")
    for force in ([], ["--force"]):
        assert_refused(export(source, a_file, *force), "is a file, not a pipeline folder")
    assert a_file.read_text(encoding="utf-8") == "keep me"


def test_a_pipeline_without_the_component_is_named_with_its_components(source, tmp_path):
    named = "no component 'nope' (its components: gd_segmenter)"
    assert_refused(export(source, tmp_path / "a", "--component", "nope"), named)
    spacy.blank("zh").to_disk(tmp_path / "blank")
    assert_refused(export(tmp_path / "blank", tmp_path / "b"), "no component 'gd_segmenter' (it has no components)")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
