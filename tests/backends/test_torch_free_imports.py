"""The featurizer, the decoders and the ONNX Runtime backend import no torch.

Each check runs in a fresh interpreter where ``import torch`` fails, as in
an install without torch.
"""
import configparser
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

BLOCK_TORCH = "import sys; sys.modules['torch'] = None\n"
TORCH_FREE = [
    "spacy_cws",
    "spacy_cws.cli",  # every command: `segment` and the others run without torch
    "spacy_cws.segmenter.component",
    "spacy_cws.mwa.component",
    "spacy_cws.nets.gd_transformer",
    "spacy_cws.nets.bmes_tagger",
    "spacy_cws.segmenter.featurizer",
    "spacy_cws.decoding.word_start_decoders",
    "spacy_cws.decoding.word_spans",
    "spacy_cws.nets.padded_inputs",
    "spacy_cws.backends.choice",
    "spacy_cws.backends.onnx_network",
]


# A user's install leaves out the train extra (setup.cfg) and the other
# torch-backed plugins: importing any of them fails here.
TRAIN_ONLY = ("torch", "torchcrf", "onnx", "onnxscript", "transformers", "spacy_transformers")
BLOCK_TRAIN_ONLY = f"""
import sys


class BlockTrainOnly:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {TRAIN_ONLY!r}:
            raise ImportError(f"No module named {{name!r}} (blocked: a user's install)")


sys.meta_path.insert(0, BlockTrainOnly())
"""


@pytest.mark.parametrize("module", TORCH_FREE)
def test_module_imports_without_torch(module):
    code = BLOCK_TORCH + f"import {module}\nassert sys.modules['torch'] is None\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


def entry_point_modules():
    """The module of every function that setup.cfg registers (its [options.entry_points])."""
    config = configparser.ConfigParser()
    config.read(REPO_ROOT / "setup.cfg", encoding="utf-8")
    groups = config["options.entry_points"].values()
    targets = [line.split("=", 1)[1] for group in groups for line in group.splitlines() if "=" in line]
    return sorted({target.strip().split(":")[0] for target in targets})


def test_every_entry_point_module_imports_without_the_train_extra():
    """spaCy (catalogue) imports every registered function's module when a
    registry lookup misses (a typo in a config, spacy package, debug config):
    none of them may need torch or another train-only package to import."""
    modules = entry_point_modules()
    assert "spacy_cws.training.weight_checkpoints" in modules and len(modules) > 10
    code = BLOCK_TRAIN_ONLY + (
        "import importlib, json\n"
        "failed = {}\n"
        f"for module in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(module)\n"
        "    except ImportError as err:\n"
        "        failed[module] = str(err)\n"
        "print(json.dumps(failed))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout) == {}


def test_torch_backed_builders_name_the_train_extra_without_torch():
    """Called without torch, the builders that need it, and the checkpoint
    callback when it saves, say which extra installs it; the callback is
    made without torch (the shipped configs name it)."""
    code = BLOCK_TRAIN_ONLY + (
        "from spacy_cws.mwa.char_encoder import build_char_encoder\n"
        "from spacy_cws.mwa.word_aligned_attention import build_mwa_enricher\n"
        "from spacy_cws.training.weight_checkpoints import create_save_weights\n"
        "save = create_save_weights('checkpoints', every=100, start=0)\n"
        "calls = [build_char_encoder, lambda: build_mwa_enricher(None), lambda: save(None, {'step': 100})]\n"
        "for call in calls:\n"
        "    try:\n"
        "        call()\n"
        "    except ImportError as err:\n"
        "        print(err)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    messages = result.stdout.splitlines()
    assert len(messages) == 3 and all('pip install "spacy-cws[train]"' in message for message in messages), messages


def test_featurizer_makes_features_without_torch():
    code = BLOCK_TORCH + (
        "from spacy_cws.features.character_view import Normaliser\n"
        "from spacy_cws.segmenter.featurizer import Featurizer\n"
        "featurizer = Featurizer(Normaliser(), max_length=8)\n"
        "featurizer.set_vocabularies(['今', '天'], [('<s>', '今'), ('今', '天')])\n"
        "_, spans, (first, second) = featurizer.featurize(['今天好今天今天今天今天'], [0])\n"
        "assert spans == [[(0, 8), (8, 11)]] and first.shape == (8, 11) and second.shape == (3, 11)\n"
        "assert first[:3, 0].tolist() == [4, 5, 1] and first[0, 1] == 4 and first[1, 1] == 5\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


# spacy-transformers, a test dependency whose factory spaCy imports with
# every pipeline, needs torch: a user's install without torch has no such
# plugin, so its entry points are hidden.
HIDE_SPACY_TRANSFORMERS = '''
import importlib.metadata as metadata

_entry_points = metadata.entry_points


def entry_points(**selection):
    found = _entry_points(**selection)
    if hasattr(found, "values"):  # every group
        found = [entry for group in found.values() for entry in group]
    return metadata.EntryPoints(entry for entry in found if not entry.value.startswith("spacy_transformers"))


metadata.entry_points = entry_points
'''
# An install without torch: torch blocked and spacy-transformers hidden.
WITHOUT_TORCH = BLOCK_TORCH + HIDE_SPACY_TRANSFORMERS
# Loads a pipeline (argv[1]) without torch and prints its words for the
# texts (argv[2], JSON).
LOAD_WITHOUT_TORCH = WITHOUT_TORCH + '''
import json

import spacy

nlp = spacy.load(sys.argv[1])
segmenter = nlp.get_pipe("gd_segmenter")
words = [[t.text for t in doc] for doc in nlp.pipe(json.loads(sys.argv[2]))]
assert sys.modules["torch"] is None
print(json.dumps({"backend": segmenter.inference_backend, "words": words}))
'''


def test_a_typo_in_a_config_is_reported_without_torch():
    """An unknown architecture name in a config makes spaCy import every
    registered architecture to list them: without torch the user sees
    spaCy's message naming the typo, not a missing torch."""
    code = BLOCK_TRAIN_ONLY + HIDE_SPACY_TRANSFORMERS + (
        "import catalogue\n"
        "from spacy.util import registry\n"
        "try:\n"
        "    registry.resolve({'model': {'@architectures': 'spacy-cws.GDTransformr.v2'}})\n"
        "except catalogue.RegistryError as err:\n"
        "    print(err)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "'spacy-cws.GDTransformr.v2'" in result.stdout and "spacy-cws.GDTransformer.v2" in result.stdout


def test_pipeline_with_a_graph_loads_and_segments_without_torch(trained_nlp, tmp_path):
    """spaCy imports every factory's module (mwa_enricher's too) and resolves
    the model's architecture; with a graph none of that imports torch, and the
    words are torch's."""
    import pickle

    from ..segmentation_data import TEXTS

    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.get_pipe("gd_segmenter").export_onnx()
    nlp.to_disk(tmp_path / "nlp")
    texts = TEXTS + ["".join(TEXTS) * 3]
    result = subprocess.run(
        [sys.executable, "-c", LOAD_WITHOUT_TORCH, str(tmp_path / "nlp"), json.dumps(texts)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = json.loads(result.stdout)
    assert loaded["backend"] == "onnxruntime"
    nlp.get_pipe("gd_segmenter").set_inference_backend("torch")
    assert loaded["words"] == [[t.text for t in doc] for doc in nlp.pipe(texts)]


def test_training_and_torch_paths_name_the_train_extra_without_torch(trained_nlp, tmp_path):
    """Without torch, a pipeline with a graph segments, and what needs torch
    (update, the torch backend, export) says which extra installs it."""
    import pickle

    nlp = pickle.loads(pickle.dumps(trained_nlp))
    nlp.get_pipe("gd_segmenter").export_onnx()
    nlp.to_disk(tmp_path / "nlp")
    code = WITHOUT_TORCH + (
        "import spacy\n"
        "from spacy.training import Example\n"
        "nlp = spacy.load(sys.argv[1])\n"
        "segmenter = nlp.get_pipe('gd_segmenter')\n"
        "assert len(nlp('今天天气很好')) > 1\n"
        "example = Example.from_dict(nlp.make_doc('今天天气'), {'words': ['今天', '天气']})\n"
        "calls = [lambda: nlp.update([example]), segmenter.export_onnx,\n"
        "         lambda: (segmenter.set_inference_backend('torch'), nlp('今天'))]\n"
        "for call in calls:\n"
        "    try:\n"
        "        call()\n"
        "    except ImportError as err:\n"
        "        print(err)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "nlp")], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    messages = result.stdout.splitlines()
    assert len(messages) == 3 and all('pip install "spacy-cws[train]"' in message for message in messages), messages
