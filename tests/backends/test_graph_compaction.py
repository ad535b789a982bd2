"""Compacted graphs: int8 n-gram tables with a scale per row, float16
storage for the other weights, and torch reading the same rows."""
import pickle

import numpy
import pytest
import spacy

from spacy_cws.backends import graph_compaction
from spacy_cws.backends.graph_compaction import compact_graph, dequantized, row_quantized, table_weights

from ..segmentation_data import MODEL, TEXTS, blank_pipeline, make_examples

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

SENTENCES = [
    "新华社北京十二月三十一日电，国家主席发表了新年贺词。",
    "他在2009年买了一部iPhone，价格是4999元。",
    "臺灣的資訊工程師在北京大學演講。",
]


def test_int8_rows_are_within_half_a_step_of_the_table():
    table = numpy.random.default_rng(0).normal(size=(1000, 64)).astype(numpy.float16)
    table[3] = 0  # a zero row keeps scale 1 and codes 0
    codes, scales = row_quantized(table)
    assert codes.dtype == numpy.int8 and scales.shape == (1000, 1)
    error = numpy.abs(dequantized(codes, scales) - table.astype(numpy.float32))
    assert (error <= scales / 2 + 1e-7).all()
    assert not dequantized(codes, scales)[3].any()


def test_compacted_graph_scores_near_the_original_and_names_its_tables(monkeypatch):
    """A small GD model with a bigram table (the threshold lowered to its
    size): the table becomes int8 rows under the torch state-dict name, the
    graph's scores stay within the rows' error, and the torch model takes
    the same rows, so both backends give the same scores."""
    import onnxruntime

    from spacy_cws.nets.module_weights import model_table_names
    from spacy_cws.nets.padded_inputs import INPUT_NAMES, padded_inputs

    nlp = blank_pipeline()
    model = {**MODEL, "@architectures": "spacy-cws.GDTransformer.v2", "bigram_width": 8}
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256, "bigram_min_count": 1})
    nlp.initialize(lambda: make_examples(nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    names = model_table_names(segmenter.model)
    assert names == {"bigram_embedding.weight"}
    monkeypatch.setattr(graph_compaction, "MIN_QUANTIZED_VALUES", 64)
    segmenter.cfg["onnx_tables"] = "float16"
    segmenter.export_onnx()
    plain = segmenter.network.graph
    compacted = compact_graph(plain, names)
    assert set(table_weights(compacted)) == names and not table_weights(plain) and not table_weights(compact_graph(plain))
    _, _, features = segmenter.training.featurize(TEXTS, [None] * len(TEXTS), segmenter.name)
    inputs = dict(zip(INPUT_NAMES, padded_inputs(features[:4], edges=True, is_train=False)))

    def scores(graph):
        inference = onnxruntime.InferenceSession(graph)
        return inference.run(None, {i.name: inputs[i.name] for i in inference.get_inputs()})[0]

    before, after = scores(plain), scores(compacted)
    assert numpy.allclose(before, after, atol=0.05) and not numpy.array_equal(before, after)
    segmenter.cfg["onnx_tables"] = "int8"
    segmenter.export_onnx()
    on_onnx = [[t.text for t in doc] for doc in nlp.pipe(SENTENCES)]
    segmenter.set_inference_backend("torch")
    assert [[t.text for t in doc] for doc in nlp.pipe(SENTENCES)] == on_onnx


def test_shipped_pipeline_exported_with_int8_tables_saves_them_once_and_both_backends_agree(zh_cws_gd_sm_nlp, tmp_path):
    """zh_cws_gd_sm exported as `ship` does: the bigram table lives in the
    graph only (the weights file is small), and the words of ONNX Runtime
    and of torch (reading the graph's rows) are the same after loading."""
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.export_onnx()
    nlp.to_disk(tmp_path / "nlp")
    folder = tmp_path / "nlp" / "gd_segmenter"
    assert (folder / "model").stat().st_size < 4_000_000 < 19_000_000 < (folder / "graph.onnx").stat().st_size < 25_000_000
    on_onnx = [[t.text for t in doc] for doc in spacy.load(tmp_path / "nlp").pipe(SENTENCES)]
    torch_nlp = spacy.load(tmp_path / "nlp", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    assert [[t.text for t in doc] for doc in torch_nlp.pipe(SENTENCES)] == on_onnx
    assert on_onnx[0][:3] == ["新华社", "北京", "十二月"]


def test_weights_saved_without_their_tables_need_the_graph(zh_cws_gd_sm_nlp, tmp_path):
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    nlp.get_pipe("gd_segmenter").export_onnx()
    nlp.to_disk(tmp_path / "nlp")
    (tmp_path / "nlp" / "gd_segmenter" / "graph.onnx").unlink()
    with pytest.raises(ValueError, match="leave out the tables"):
        spacy.load(tmp_path / "nlp")
