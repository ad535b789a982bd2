"""A user's install (no torch): both shipped pipelines load, segment and tag CTB6 test without importing torch,
and spaCy's own tools work on a shipped and an adapted pipeline.

Run by .ci/run in a fresh venv where only README's user install was done:
    python .ci/torch_free_check.py ../shared/data/ctb6/test.seg
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin


def run(*command: str) -> subprocess.CompletedProcess:
    """Run a command of this venv's Python; RAISES AssertionError with its output's end when it fails."""
    result = subprocess.run([sys.executable, *command], capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(command)}:\n{(result.stdout + result.stderr)[-3000:]}"
    return result


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
    # The part-of-speech tagger behind the segmenter runs on thinc's numpy ops.
    untagged = sum(1 for doc in docs for token in doc if not token.tag_ or not token.pos_)
    assert "tagger" in nlp.pipe_names and not untagged, f"{name}: {untagged:,} words without a PKU tag and UPOS"
# The command line too: segment CTB6 test's text with each pipeline.
with tempfile.TemporaryDirectory() as folder:
    source = Path(folder) / "input.txt"
    source.write_text("".join(text + "\n" for text in texts), encoding="utf-8")
    for name in ("zh_cws_gd_sm", "zh_cws_gd"):
        output = Path(folder) / f"{name}.txt"
        subprocess.run(
            [sys.executable, "-m", "spacy_cws", "segment", str(source), "-o", str(output), "--model", name], check=True
        )
        words = output.read_text(encoding="utf-8").splitlines()
        assert ["".join(line.split()) for line in words] == texts, f"segment with {name} lost text"
        print(f"segment --model {name}: {len(words):,} lines")
# spaCy's tools: each looks up registered functions, and a lookup that misses
# (a typo, or spacy package's search for the packages a config needs) imports
# every registered function's module: none may need torch. On zh_cws_gd_sm and
# on a copy adapted (lexicon only) to a few hundred lines of CTB6 test.
with tempfile.TemporaryDirectory() as folder:
    folder = Path(folder)
    raw = folder / "raw.txt"
    raw.write_text("".join(text + "\n" for text in texts[:300]), encoding="utf-8")
    adapted = folder / "adapted"
    run("-m", "spacy_cws", "adapt", "zh_cws_gd_sm", str(raw), "--output", str(adapted), "--lexicon-only")
    shipped = next(spacy.util.get_package_path("zh_cws_gd_sm").glob("*/config.cfg")).parent
    # A shipped pipeline's config names no corpora (paths.train and paths.dev
    # are null, as in spaCy's own packages): debug config is given them, as a
    # user training on it would, here 200 gold lines of CTB6 test.
    gold = folder / "gold.spacy"
    lines = [line.split() for line in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()[:200]]
    vocab = spacy.blank("zh").vocab
    DocBin(docs=[Doc(vocab, words=words) for words in lines if words]).to_disk(gold)
    corpora = ("--paths.train", str(gold), "--paths.dev", str(gold))
    for name, path in (("zh_cws_gd_sm", shipped), ("adapted zh_cws_gd_sm", adapted)):
        run("-m", "spacy", "debug", "config", str(path / "config.cfg"), *corpora)
        packages = folder / "packages" / path.name
        packages.mkdir(parents=True)
        run("-m", "spacy", "package", str(path), str(packages), "--build", "none")
        assert any(packages.glob("*/setup.py")), f"spacy package wrote no package of {name}"
        # spaCy's documented recipe: a pipeline from its config, then its bytes.
        nlp = spacy.load(path)
        copy = spacy.util.get_lang_class(nlp.lang).from_config(nlp.config).from_bytes(nlp.to_bytes())
        sample = texts[:200]
        words = [[[t.text for t in doc] for doc in pipeline.pipe(sample)] for pipeline in (nlp, copy)]
        assert words[0] == words[1], f"{name} from its config and bytes gives other words"
        print(f"{name}: spacy debug config, spacy package, from_config + from_bytes")
    # A typo in a config: spaCy's own message, naming it.
    typo = folder / "typo.cfg"
    config = (shipped / "config.cfg").read_text(encoding="utf-8")
    typo.write_text(config.replace("GDTransformer.v2", "GDTransformr.v2"), encoding="utf-8")
    debug = [sys.executable, "-m", "spacy", "debug", "config", str(typo), *corpora]
    result = subprocess.run(debug, capture_output=True, text=True)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "GDTransformr.v2" in output and "torch" not in output, output[-2000:]
    print("a typo in a config: spaCy names it")
try:
    import torch  # noqa: F401
except ImportError:
    pass
else:
    sys.exit("torch is installed: this check needs a venv without it")
assert "torch" not in sys.modules, "torch was imported"
print("torch never imported")
