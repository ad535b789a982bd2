"""The gd_segmenter on ONNX Runtime: the words of torch, saved and loaded with
its graph, and the inference_backend setting."""
import pickle
import warnings

import pytest
import spacy
import srsly

from spacy_cws.backends import choice
from spacy_cws.damaged_pipeline import DamagedPipelineError
from spacy_cws.nets.left_out_tables import leaves_out_tables
from spacy_cws.segmenter.serialization import GRAPH_KEY

from ..segmentation_data import TEXTS, make_examples

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

# Longer than the tiny pipeline's max_length (64): cut into several sequences.
LONG_TEXT = "".join(TEXTS) * 3
USER_WORDS = ["天气很好", "经济", "边境城市"]


@pytest.fixture(scope="module")
def exported(trained_nlp):
    """A copy of the tiny trained pipeline, its graph exported (the shared fixture stays on torch)."""
    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.get_pipe("gd_segmenter").export_onnx()
    return nlp


def _words(nlp, texts, backend=None):
    if backend:
        nlp.get_pipe("gd_segmenter").set_inference_backend(backend)
    return [[t.text for t in doc] for doc in nlp.pipe(texts, batch_size=3)]


def test_export_passes_on_no_tracer_warning(trained_nlp):
    """The tracer's notes on the values the graph keeps as constants (backends/onnx_export.py)
    are nothing for the user of export-onnx or adapt to act on: they are not shown."""
    import torch

    nlp = pickle.loads(pickle.dumps(trained_nlp))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp.get_pipe("gd_segmenter").export_onnx()
    assert nlp.get_pipe("gd_segmenter").has_graph
    assert not [warning for warning in caught if issubclass(warning.category, torch.jit.TracerWarning)]


def test_auto_runs_the_graph_with_the_words_of_torch(exported):
    segmenter = exported.get_pipe("gd_segmenter")
    texts = TEXTS + [LONG_TEXT, "", "  上海 浦东\n"]
    on_torch = _words(exported, texts, "torch")
    assert segmenter.inference_backend == "torch"
    on_onnx = _words(exported, texts, "auto")
    assert segmenter.inference_backend == "onnxruntime" and segmenter.inference_precision == "float32"
    assert type(segmenter.network.inference_network(segmenter.name)).__name__ == "OnnxNetwork"
    assert on_onnx == on_torch
    assert on_onnx[0] == ["新华社", "北京", "二月", "十二日", "电"]


@pytest.mark.parametrize("mode", ["force", "prefer"])
def test_user_dictionary_and_never_cut_spans_act_alike_on_both_backends(exported, mode):
    nlp = pickle.loads(pickle.dumps(exported))
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter.add_words(USER_WORDS)
    segmenter.set_user_dictionary_mode(mode)
    texts = TEXTS + ["今天天气很好，经济发展，网址 https://example.com/a?b=1 和 3.5% 增长"]
    on_onnx = _words(nlp, texts, "onnxruntime")
    assert on_onnx == _words(nlp, texts, "torch")
    assert "https://example.com/a?b=1" in on_onnx[-1]
    if mode == "force":
        assert "天气很好" in on_onnx[-1] and "边境城市" in on_onnx[2]


def test_graph_is_saved_under_its_own_key_and_loaded(exported, tmp_path):
    exported.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / "gd_segmenter" / GRAPH_KEY).is_file()
    loaded = spacy.load(tmp_path / "pipeline")
    segmenter = loaded.get_pipe("gd_segmenter")
    assert segmenter.has_graph and segmenter.inference_backend == "onnxruntime"
    assert _words(loaded, TEXTS) == _words(exported, TEXTS, "torch")
    # to_bytes / from_bytes carry it too, and exclude=["graph"] leaves it out.
    data = exported.get_pipe("gd_segmenter").to_bytes()
    assert segmenter.from_bytes(data).has_graph
    assert not segmenter.from_bytes(data, exclude=["graph"]).has_graph
    # Saving a pipeline without a graph into the same folder removes the stale file.
    segmenter.to_disk(tmp_path / "pipeline" / "gd_segmenter")
    assert not (tmp_path / "pipeline" / "gd_segmenter" / GRAPH_KEY).exists()


def test_pipeline_without_graph_loads_and_runs_torch(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "plain")
    segmenter = spacy.load(tmp_path / "plain").get_pipe("gd_segmenter")
    assert not segmenter.has_graph and segmenter.inference_backend == "torch"


def test_pickled_pipeline_keeps_its_graph(exported):
    _words(exported, TEXTS, "auto")  # a built InferenceSession, which itself does not pickle
    unpickled = pickle.loads(pickle.dumps(exported))
    assert unpickled.get_pipe("gd_segmenter").inference_backend == "onnxruntime"
    assert _words(unpickled, TEXTS) == _words(exported, TEXTS)


def test_training_drops_the_graph_of_the_old_weights(exported):
    nlp = pickle.loads(pickle.dumps(exported))
    segmenter = nlp.get_pipe("gd_segmenter")
    nlp.update(make_examples(nlp)[:2], sgd=nlp.create_optimizer())
    assert not segmenter.has_graph and segmenter.inference_backend == "torch"


def test_onnxruntime_setting_needs_a_graph_and_onnxruntime(trained_nlp, exported, monkeypatch):
    plain = pickle.loads(pickle.dumps(trained_nlp)).get_pipe("gd_segmenter")
    plain.set_inference_backend("onnxruntime")
    with pytest.raises(ValueError, match="export_onnx"):
        plain.segment_texts(TEXTS[:1])
    with pytest.raises(ValueError, match="inference_backend must be one of"):
        plain.set_inference_backend("tensorrt")
    monkeypatch.setattr(choice, "onnxruntime_installed", lambda: False)
    segmenter = pickle.loads(pickle.dumps(exported)).get_pipe("gd_segmenter")
    segmenter.set_inference_backend("auto")
    assert segmenter.inference_backend == "torch"  # auto falls back
    segmenter.set_inference_backend("onnxruntime")
    with pytest.raises(ImportError, match="pip install onnxruntime"):
        segmenter.segment_texts(TEXTS[:1])


def test_config_settings_choose_the_backend(exported, tmp_path):
    exported.to_disk(tmp_path / "pipeline")
    overrides = {"inference_backend": "torch", "inference_threads": 1}
    loaded = spacy.load(tmp_path / "pipeline", config={"components": {"gd_segmenter": overrides}})
    assert loaded.get_pipe("gd_segmenter").inference_backend == "torch"
    with pytest.raises(ValueError, match="inference_threads"):
        spacy.load(tmp_path / "pipeline", config={"components": {"gd_segmenter": {"inference_threads": -1}}})


def test_two_processes_and_four_threads_give_the_words_of_one(exported, tmp_path):
    """n_process workers (forked after the parent built its InferenceSession) and
    concurrent threads share nothing mutable on the ONNX Runtime path."""
    from ..segmenter.test_fork_safety import _pipe_in_fresh_process
    from ..segmenter.test_thread_safety import concurrent_words

    exported.to_disk(tmp_path / "nlp")
    result = _pipe_in_fresh_process(str(tmp_path / "nlp"))
    assert result["forked"] == result["single"] and result["texts"] == TEXTS * 4
    nlp = spacy.load(tmp_path / "nlp")
    assert nlp.get_pipe("gd_segmenter").inference_backend == "onnxruntime"
    alone = _words(nlp, TEXTS)
    assert concurrent_words(nlp, [TEXTS] * 4) == [alone] * 4


def test_loaded_graph_pipeline_keeps_its_weights_unloaded_until_torch_needs_them(exported, tmp_path):
    """Loaded with a graph that ONNX Runtime runs, the torch weights stay bytes:
    saved again unchanged, loaded on the first torch prediction or update."""
    exported.to_disk(tmp_path / "first")
    loaded = spacy.load(tmp_path / "first")
    segmenter = loaded.get_pipe("gd_segmenter")
    assert segmenter.network.pending_weights is not None and not segmenter.model.layers
    loaded.to_disk(tmp_path / "second")
    for name in ("model", GRAPH_KEY, "cfg"):
        assert (tmp_path / "second" / "gd_segmenter" / name).read_bytes() == (
            tmp_path / "first" / "gd_segmenter" / name
        ).read_bytes()
    on_onnx = _words(loaded, TEXTS)
    assert _words(loaded, TEXTS, "torch") == on_onnx
    assert segmenter.network.pending_weights is None and segmenter.model.layers and segmenter.has_graph
    again = spacy.load(tmp_path / "first")
    again.update(make_examples(again)[:2], sgd=again.create_optimizer())
    assert not again.get_pipe("gd_segmenter").has_graph


def test_a_saved_graph_must_load_with_its_pipeline(exported, tmp_path):
    """The saved cfg records the graph: without its file (or its key in the
    bytes) the pipeline does not load, though this tiny one's weights hold
    all its tables and would run on torch; left out on purpose, it is none."""
    exported.to_disk(tmp_path / "nlp")
    folder = tmp_path / "nlp" / "gd_segmenter"
    assert srsly.read_json(folder / "cfg")["saved_parts"] == ["featurizer", GRAPH_KEY]
    assert not leaves_out_tables((folder / "model").read_bytes())
    (folder / GRAPH_KEY).unlink()
    with pytest.raises(DamagedPipelineError, match=f"{folder / GRAPH_KEY} is missing, though the pipeline was saved"):
        spacy.load(tmp_path / "nlp")
    segmenter = pickle.loads(pickle.dumps(exported)).get_pipe("gd_segmenter")
    assert not segmenter.from_disk(folder, exclude=["graph"]).has_graph
    saved = srsly.msgpack_loads(exported.get_pipe("gd_segmenter").to_bytes())
    del saved[GRAPH_KEY]
    with pytest.raises(DamagedPipelineError, match=f"its part '{GRAPH_KEY}' .* is missing"):
        segmenter.from_bytes(srsly.msgpack_dumps(saved))


def test_a_forked_worker_keeps_the_parents_network_alive(exported):
    """Destroying an ONNX Runtime InferenceSession inherited through fork would join
    thread-pool threads the child does not have: the child never drops it."""
    import os

    from spacy_cws.backends import network_cache

    segmenter = exported.get_pipe("gd_segmenter")
    _words(exported, TEXTS[:1], "auto")
    parent_network = segmenter.network.cache._network
    assert parent_network is not None
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a new network for itself, the parent's kept
        ok = segmenter.network.cache.get() is None and network_cache._INHERITED[-1] is parent_network
        os.write(writer, b"1" if ok else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(reader, 1) == b"1" and segmenter.network.cache.get() is parent_network
