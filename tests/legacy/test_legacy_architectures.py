"""The .v1 architectures: imported only when a config names them (through setup.cfg's
entry points, as spacy-legacy's are), and pipelines saved with them still load."""
import subprocess
import sys

import numpy
import pytest
import spacy
from spacy.util import fix_random_seed

from ..segmentation_data import MODEL, SENTENCES, blank_pipeline, make_examples

V1 = {
    "spacy-cws.GDTransformer.v1": {**MODEL, "bigram_width": 8},
    "spacy-cws.BMESTagger.v1": {"unigram_width": 16, "bigram_width": 8, **MODEL, "window": 0, "decoder": "softmax"},
}

IMPORT_EVERYTHING = """
import sys
import catalogue
import spacy_cws, spacy_cws.segmenter.component, spacy_cws.nets.gd_transformer, spacy_cws.nets.bmes_tagger
in_memory = [name for name in {names} if catalogue.check_exists("spacy", "architectures", name)]
print(sorted(name for name in sys.modules if name.startswith("spacy_cws.legacy")), in_memory)
"""


def test_importing_spacy_cws_neither_imports_nor_registers_the_v1_architectures():
    code = IMPORT_EVERYTHING.format(names=sorted(V1))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[] []"


@pytest.mark.parametrize("architecture", sorted(V1))
def test_a_v1_pipeline_is_built_from_its_config_and_loads_from_disk(architecture, tmp_path):
    fix_random_seed(0)
    nlp = blank_pipeline()
    model = {"@architectures": architecture, **V1[architecture]}
    nlp.add_pipe("gd_segmenter", config={"model": model, "max_length": 64, "batch_units": 256})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"bigram_min_count": 1}
    nlp.initialize(lambda: make_examples(nlp))
    assert "spacy_cws.legacy.architectures" in sys.modules
    texts = ["".join(sentence.split()) for sentence in SENTENCES]
    words = [[token.text for token in doc] for doc in nlp.pipe(texts)]
    assert all("".join(doc_words) == text for doc_words, text in zip(words, texts))
    nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert reloaded.config["components"]["gd_segmenter"]["model"]["@architectures"] == architecture
    assert [[token.text for token in doc] for doc in reloaded.pipe(texts)] == words
    saved, loaded = (nlp.get_pipe("gd_segmenter").model, reloaded.get_pipe("gd_segmenter").model)
    assert all(numpy.array_equal(a, b) for a, b in zip(_weights(saved), _weights(loaded)))


def _weights(model):
    return [p.detach().cpu().numpy() for node in model.walk() for shim in node.shims for p in shim._model.parameters()]
