"""Inference is deterministic and thread-safe: no dropout, no shared mutable state.

thinc's PyTorchShim.predict puts the torch module back in train mode after
each call, so concurrent predictions used to run with dropout (issue 18/19);
the segmenter now predicts with a frozen eval-mode copy (nets/inference.py).
"""
import threading

import pytest

from spacy_cws.corpora.evaluation_files import TEST_INPUT, list_text_lines
from spacy_cws.nets.inference import native_bfloat16

from ..conftest import shipped_pipeline
from ..segmentation_data import MODEL, SENTENCES, blank_pipeline

N_THREADS = 4


def _words(nlp, texts):
    return [[token.text for token in doc] for doc in nlp.pipe(texts, batch_size=64)]


def _features(nlp, text):
    """The model input of one short text (one sequence)."""
    return nlp.get_pipe("gd_segmenter").training.featurize([text], [None], "gd_segmenter")[2][0]


def concurrent_words(nlp, texts_per_thread):
    """Each thread segments its own texts, all started at once; RETURNS their words in thread order."""
    results = [None] * len(texts_per_thread)
    barrier = threading.Barrier(len(texts_per_thread))
    errors = []

    def work(index):
        try:
            barrier.wait()
            results[index] = _words(nlp, texts_per_thread[index])
        except Exception as err:  # re-raised in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts_per_thread))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


@pytest.fixture(scope="module")
def dropout_nlp(trained_nlp):
    """The tiny trained pipeline's weights in a model configured with heavy dropout."""
    nlp = blank_pipeline()
    nlp.add_pipe(
        "gd_segmenter",
        config={"model": {**MODEL, "dropout": 0.5, "attention_dropout": 0.5}, "max_length": 64, "batch_units": 256},
    )
    return nlp.from_bytes(trained_nlp.to_bytes())


def test_inference_never_runs_dropout(trained_nlp, dropout_nlp):
    texts = ["".join(sentence) for sentence in SENTENCES]
    expected = _words(trained_nlp, texts)
    assert _words(dropout_nlp, texts) == expected
    # A training step's begin_update leaves the torch module in train mode.
    dropout_nlp.get_pipe("gd_segmenter").model.begin_update([_features(dropout_nlp, texts[0])])
    assert _words(dropout_nlp, texts) == expected


def test_threads_give_the_sequential_output(dropout_nlp):
    texts = ["".join(sentence) for sentence in SENTENCES] * 20
    chunks = [texts[i::N_THREADS] for i in range(N_THREADS)]
    sequential = [_words(dropout_nlp, chunk) for chunk in chunks]
    assert concurrent_words(dropout_nlp, chunks) == sequential


@pytest.mark.parametrize(
    "precision",
    [
        "float32",
        pytest.param(
            "bfloat16",
            marks=pytest.mark.skipif(
                not native_bfloat16(), reason="this CPU emulates bfloat16 (about 20x slower); float32 runs the threads"
            ),
        ),
    ],
)
def test_zh_cws_gd_threads_give_the_sequential_output_on_ctb6(precision, prepared_ctb6):
    """4 threads x 500 CTB6 test sentences give exactly the sequential words."""
    nlp = shipped_pipeline("zh_cws_gd", precision)
    lines = [line for line in list_text_lines(prepared_ctb6 / TEST_INPUT) if line.strip()]
    chunks = [lines[i * 500 : (i + 1) * 500] for i in range(N_THREADS)]
    sequential = [_words(nlp, chunk) for chunk in chunks]
    assert concurrent_words(nlp, chunks) == sequential
