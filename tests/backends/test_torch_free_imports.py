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
    "spacy_cws.segmenter.featurizer",
    "spacy_cws.segmenter.word_start_decoders",
    "spacy_cws.segmenter.decoding",
    "spacy_cws.models.padded_inputs",
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
        "from spacy_cws.segmenter.character_view import Normaliser\n"
        "from spacy_cws.segmenter.featurizer import Featurizer\n"
        "featurizer = Featurizer(Normaliser(), max_length=8)\n"
        "featurizer.set_vocabularies(['今', '天'], [('<s>', '今'), ('今', '天')])\n"
        "_, spans, (first, second) = featurizer.featurize(['今天好今天今天今天今天'], [0])\n"
        "assert spans == [[(0, 8), (8, 11)]] and first.shape == (8, 11) and second.shape == (3, 11)\n"
        "assert first[:3, 0].tolist() == [4, 5, 1] and first[0, 1] == 4 and first[1, 1] == 5\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
