"""The featurizer, the decoders and the ONNX Runtime backend import no torch.

Each check runs in a fresh interpreter where ``import torch`` fails, as in
an install without torch.
"""
import subprocess
import sys

import pytest

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


@pytest.mark.parametrize("module", TORCH_FREE)
def test_module_imports_without_torch(module):
    code = BLOCK_TORCH + f"import {module}\nassert sys.modules['torch'] is None\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


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


# An install without torch: torch blocked, and spacy-transformers, a test
# dependency whose factory spaCy imports with every pipeline and which needs
# torch, hidden (a user's install without torch has no such plugin).
WITHOUT_TORCH = BLOCK_TORCH + '''
import importlib.metadata as metadata

_entry_points = metadata.entry_points


def entry_points(**selection):
    found = _entry_points(**selection)
    if hasattr(found, "values"):  # every group
        found = [entry for group in found.values() for entry in group]
    return metadata.EntryPoints(entry for entry in found if not entry.value.startswith("spacy_transformers"))


metadata.entry_points = entry_points
'''
# Loads a pipeline (argv[1]) without torch and prints its words for the texts (argv[2], JSON).
LOAD_WITHOUT_TORCH = WITHOUT_TORCH + '''
import json

import spacy

nlp = spacy.load(sys.argv[1])
segmenter = nlp.get_pipe("gd_segmenter")
words = [[t.text for t in doc] for doc in nlp.pipe(json.loads(sys.argv[2]))]
assert sys.modules["torch"] is None
print(json.dumps({"backend": segmenter.inference_backend, "words": words}))
'''


def test_pipeline_with_a_graph_loads_and_segments_without_torch(trained_nlp, tmp_path):
    """spaCy imports every factory's module (mwa_enricher's too) and resolves
    the model's architecture; with a graph none of that imports torch, and the
    words are torch's."""
    import json
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
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "nlp")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    messages = result.stdout.splitlines()
    assert len(messages) == 3 and all('pip install "spacy-cws[train]"' in message for message in messages), messages
