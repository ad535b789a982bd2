"""Compacted graphs: int8 rows or 4-bit blocks for the n-gram tables,
float16 storage for the other weights, and torch reading the same rows."""
import pickle

import numpy
import pytest
import spacy

from spacy_cws.backends import graph_compaction
from spacy_cws.backends.graph_compaction import (
    block_dequantized,
    block_quantized,
    compact_graph,
    dequantized,
    packed_4bit,
    row_quantized,
    table_weights,
    unpacked_4bit,
)
from spacy_cws.damaged_pipeline import DamagedPipelineError

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


def test_4bit_blocks_keep_each_block_within_its_min_max_error_and_pack_two_codes_to_a_byte():
    table = numpy.random.default_rng(1).normal(size=(1000, 64)).astype(numpy.float16)
    table[5] = 0  # a zero row stays zero
    table[7, 3] = 40.0  # an outlier widens its own block's step only
    table[9, :32] = numpy.linspace(5, 6, 32)  # a block of positive values: its range is widened to hold 0
    codes, zero_points, scales = block_quantized(table)
    assert codes.dtype == numpy.uint8 and codes.max() == 15 and zero_points.shape == scales.shape == (1000, 2)
    rows = block_dequantized(codes, zero_points, scales)
    error = numpy.square(rows - table.astype(numpy.float32)).reshape(1000, 2, 32).sum(axis=2)
    # No block is worse than with its plain min-max scale (the clipping search starts there) ...
    blocks = table.astype(numpy.float32).reshape(1000, 2, 32)
    low, high = numpy.minimum(blocks.min(axis=2), 0), numpy.maximum(blocks.max(axis=2), 0)
    plain = numpy.where(high > low, (high - low) / 15, 1.0)
    plain_codes = numpy.clip(numpy.rint(blocks / plain[..., None]) + numpy.rint(-low / plain)[..., None], 0, 15)
    plain_error = numpy.square((plain_codes - numpy.rint(-low / plain)[..., None]) * plain[..., None] - blocks).sum(
        axis=2
    )
    assert (error <= plain_error * (1 + 1e-5) + 1e-9).all() and error.sum() < 0.99 * plain_error.sum()
    assert not rows[5].any()
    assert error[7, 0] > 20 * error[7, 1] and numpy.abs(rows[9, :32] - table[9, :32]).max() < 0.25
    packed = packed_4bit(codes)
    assert packed.shape == (1000, 32) and numpy.array_equal(unpacked_4bit(packed, 64), codes)
    assert numpy.array_equal(unpacked_4bit(packed_4bit(zero_points), 2), zero_points)


def test_4bit_table_dequantized_by_onnx_runtime_gives_the_rows_torch_reads(monkeypatch):
    """A graph that only gathers rows: ONNX Runtime's rows from the 4-bit
    blocks (GatherBlockQuantized) equal table_weights' rows, which the
    torch model takes, exactly; they take 41 of int8's 68 bytes a row."""
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

    table = numpy.random.default_rng(2).normal(size=(4096, 64)).astype(numpy.float32)
    graph = helper.make_model(
        helper.make_graph(
            [helper.make_node("Gather", ["bigram_embedding.weight", "ids"], ["rows"], axis=0)],
            "lookup",
            [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "length"])],
            [helper.make_tensor_value_info("rows", TensorProto.FLOAT, ["batch", "length", 64])],
            [numpy_helper.from_array(table, "bigram_embedding.weight")],
        ),
        opset_imports=[helper.make_opsetid("", 18)],
    ).SerializeToString()
    monkeypatch.setattr(graph_compaction, "MIN_QUANTIZED_VALUES", 1024)
    four, eight = (compact_graph(graph, {"bigram_embedding.weight"}, bits=bits) for bits in (4, 8))
    ids = numpy.random.default_rng(3).integers(0, 4096, size=(3, 50))
    rows = onnxruntime.InferenceSession(four).run(None, {"ids": ids})[0]
    torch_rows = table_weights(four)["bigram_embedding.weight"]
    assert rows.shape == (3, 50, 64) and numpy.array_equal(rows, torch_rows[ids])
    assert numpy.abs(rows - table[ids]).max() < (table.max() - table.min()) / 15
    assert not numpy.allclose(rows, table_weights(eight)["bigram_embedding.weight"][ids], atol=1e-3)
    sizes = {
        bits: sum(
            i.ByteSize()
            for i in onnx.load_from_string(g).graph.initializer
            if i.name.startswith("bigram_embedding.weight.")
        )
        for bits, g in ((4, four), (8, eight))
    }
    assert 0.59 < sizes[4] / sizes[8] < 0.62
    with pytest.raises(ValueError, match="int8 rows or 4-bit blocks"):
        compact_graph(graph, {"bigram_embedding.weight"}, bits=5)


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
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": 1}
    nlp.initialize(lambda: make_examples(nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    names = model_table_names(segmenter.model)
    assert names == {"bigram_embedding.weight"}
    monkeypatch.setattr(graph_compaction, "MIN_QUANTIZED_VALUES", 64)
    segmenter.export_onnx(tables="float16")
    plain = segmenter.network.graph
    compacted = compact_graph(plain, names)
    assert (
        set(table_weights(compacted)) == names and not table_weights(plain) and not table_weights(compact_graph(plain))
    )
    _, _, features = segmenter.training.featurize(TEXTS, [None] * len(TEXTS), segmenter.name)
    inputs = dict(zip(INPUT_NAMES, padded_inputs(features[:4], edges=True, is_train=False)))

    def scores(graph):
        inference = onnxruntime.InferenceSession(graph)
        return inference.run(None, {i.name: inputs[i.name] for i in inference.get_inputs()})[0]

    before, after = scores(plain), scores(compacted)
    assert numpy.allclose(before, after, atol=0.05) and not numpy.array_equal(before, after)
    segmenter.export_onnx(tables="int8")
    on_onnx = [[t.text for t in doc] for doc in nlp.pipe(SENTENCES)]
    segmenter.set_inference_backend("torch")
    assert [[t.text for t in doc] for doc in nlp.pipe(SENTENCES)] == on_onnx


# Bytes a 64-wide bigram row takes: 4-bit blocks (32 of codes, 2 float32 scales, 2 zero points in a byte),
# int8 rows (64 codes, a float32 scale).
@pytest.mark.parametrize("tables,row_bytes", [("int4", 41), ("int8", 68)])
def test_shipped_pipeline_exported_with_quantized_tables_saves_them_once_and_both_backends_agree(
    zh_cws_gd_sm_nlp, tmp_path, tables, row_bytes
):
    """zh_cws_gd_sm exported with 4-bit blocks (as `ship` does) or int8 rows,
    and float32 products: the bigram table lives in the graph only (the
    weights file is small), the graph's size follows the rows' bits, and the
    words of ONNX Runtime and of torch (reading the graph's rows) are the
    same after loading."""
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.export_onnx(tables=tables, matmuls="float32")
    nlp.to_disk(tmp_path / "nlp")
    folder = tmp_path / "nlp" / "gd_segmenter"
    assert (folder / "model").stat().st_size < 4_000_000
    table_bytes = segmenter.featurizer.symbol_ids.n_bigrams * row_bytes
    assert table_bytes < (folder / "graph.onnx").stat().st_size < table_bytes + 2_000_000
    on_onnx = [[t.text for t in doc] for doc in spacy.load(tmp_path / "nlp").pipe(SENTENCES)]
    torch_nlp = spacy.load(tmp_path / "nlp", config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    assert [[t.text for t in doc] for doc in torch_nlp.pipe(SENTENCES)] == on_onnx
    assert on_onnx[0][:3] == ["新华社", "北京", "十二月"]


def test_weights_saved_without_their_tables_need_the_graph(zh_cws_gd_sm_nlp, tmp_path):
    nlp = pickle.loads(pickle.dumps(zh_cws_gd_sm_nlp))
    nlp.get_pipe("gd_segmenter").export_onnx(SENTENCES, tables="int4", matmuls="int8-static")  # as `ship` does
    nlp.to_disk(tmp_path / "nlp")
    (tmp_path / "nlp" / "gd_segmenter" / "graph.onnx").unlink()
    with pytest.raises(DamagedPipelineError, match="graph.onnx is missing, though the pipeline was saved with it"):
        spacy.load(tmp_path / "nlp")
