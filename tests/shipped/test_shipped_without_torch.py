"""The shipped pipelines load and segment all of CTB6 test without importing
torch, with the words of their torch path."""
import json
import subprocess
import sys

import pytest

from ..backends.test_torch_free_imports import LOAD_WITHOUT_TORCH

pytest.importorskip("onnxruntime")


@pytest.mark.parametrize("name", ["zh_cws_gd_sm", "zh_cws_gd"])
def test_shipped_pipeline_segments_ctb6_test_without_torch(name, shared_data, tmp_path):
    import spacy

    texts = [
        "".join(line.split()) for line in (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").splitlines()
    ]
    (tmp_path / "texts.json").write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    code = LOAD_WITHOUT_TORCH.replace(
        "json.loads(sys.argv[2])", "json.loads(open(sys.argv[2], encoding='utf-8').read())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, name, str(tmp_path / "texts.json")], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = json.loads(result.stdout)
    assert loaded["backend"] == "onnxruntime" and len(loaded["words"]) == len(texts) == 1975
    assert ["".join(words) for words in loaded["words"]] == texts
    # The torch path reads the graph's table rows (checked on a sample, for time): with float32
    # products the same words; with int8-static products (zh_cws_gd) a few lines differ
    # (26 of 1,975 on all of CTB6 test, docs/experiments/inference.md).
    torch_nlp = spacy.load(name, config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    torch_nlp.get_pipe("gd_segmenter").set_inference_precision("float32")
    sample = slice(0, 1975, 7)
    torch_words = [[t.text for t in doc] for doc in torch_nlp.pipe(texts[sample])]
    differing = sum(ours != theirs for ours, theirs in zip(torch_words, loaded["words"][sample]))
    allowed = 0 if torch_nlp.get_pipe("gd_segmenter").cfg["onnx_matmuls"] == "float32" else len(torch_words) // 50
    assert differing <= allowed
