"""A user's install (no torch): both shipped pipelines load and segment CTB6 test without importing torch.

Run by .ci/run in a fresh venv where only README's user install was done:
    python .ci/torch_free_check.py ../shared/data/ctb6/test.seg
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import spacy

texts = ["".join(line.split()) for line in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()]
for name in ("zh_cws_gd_sm", "zh_cws_gd"):
    start = time.perf_counter()
    nlp = spacy.load(name)
    loaded = time.perf_counter() - start
    docs = list(nlp.pipe(texts))
    assert [doc.text for doc in docs] == texts, f"{name} lost text"
    backend = nlp.get_pipe("gd_segmenter").inference_backend
    words = sum(len(doc) for doc in docs)
    print(f"{name}: {backend}, loaded in {loaded:.2f} s, {len(texts):,} lines, {words:,} words")
    assert backend == "onnxruntime", f"{name} runs {backend}, not its graph"
# The command line too: segment CTB6 test's text with each pipeline.
with tempfile.TemporaryDirectory() as folder:
    source = Path(folder) / "input.txt"
    source.write_text("".join(text + "\n" for text in texts), encoding="utf-8")
    for name in ("zh_cws_gd_sm", "zh_cws_gd"):
        output = Path(folder) / f"{name}.txt"
        subprocess.run([sys.executable, "-m", "spacy_cws", "segment", str(source), "-o", str(output), "--model", name], check=True)
        words = output.read_text(encoding="utf-8").splitlines()
        assert ["".join(line.split()) for line in words] == texts, f"segment with {name} lost text"
        print(f"segment --model {name}: {len(words):,} lines")
try:
    import torch  # noqa: F401
except ImportError:
    pass
else:
    sys.exit("torch is installed: this check needs a venv without it")
assert "torch" not in sys.modules, "torch was imported"
print("torch never imported")
