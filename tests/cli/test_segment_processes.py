"""Forked workers that return word offsets (``segment --n-process``) give the
words of one process, in input order, and pass on a worker's error."""
import os

import numpy
import pytest
import spacy
from typer.testing import CliRunner

from spacy_cws.cli import app
from spacy_cws.streaming.pipeline import sole_segmenter
from spacy_cws.streaming.processes import can_fork, segment_in_processes
from spacy_cws.streaming.segmentation import segment_lines
from spacy_cws.segmenter.component import Segmenter

from .test_segment import model_path, model_paths  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked (Linux)")


@pytest.fixture(scope="module")
def ctb6_texts(shared_data):
    """150 CTB6 test sentences without spaces, with empty and whitespace-only texts among them."""
    lines = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n")[:150]
    texts = ["".join(line.split()) for line in lines]
    return texts[:40] + ["", " \u3000\t"] + texts[40:] + [" ".join(texts[:3])]


@pytest.fixture(scope="module")
def nlp(model_path):  # noqa: F811
    return spacy.load(model_path)


def test_workers_give_the_words_of_one_process_in_order(nlp, ctb6_texts):
    segmenter = sole_segmenter(nlp)
    expected = segmenter.segment_texts(ctb6_texts)
    # Batches of 7 texts: many more batches than the 4 kept in flight by 2 workers.
    results = list(segment_in_processes(segmenter, iter(ctb6_texts), batch_size=7, n_process=2))
    assert [text for text, _ in results] == ctb6_texts
    assert len(results) == len(expected)
    for (_, words), reference in zip(results, expected):
        numpy.testing.assert_array_equal(words, reference)


def test_segment_lines_uses_the_workers_not_nlp_pipe(nlp, ctb6_texts, monkeypatch):
    def no_docs(*args, **kwargs):
        raise AssertionError("nlp.pipe was called: Docs were shipped between processes")

    monkeypatch.setattr(nlp, "pipe", no_docs)
    results = list(segment_lines(nlp, ctb6_texts[:30], batch_size=4, n_process=2))
    assert [text for text, _ in results] == ctb6_texts[:30]


class WorkerFailure(Exception):
    pass


def test_a_worker_error_is_raised_in_the_parent(nlp, monkeypatch):
    segmenter = sole_segmenter(nlp)

    def fail_on_the_second_batch(texts):
        if texts[0] == "second":
            raise WorkerFailure(texts[0])
        return [numpy.zeros((0, 2), dtype=numpy.int64) for _ in texts]

    # The workers are forked after this, so they run the patched method.
    monkeypatch.setattr(segmenter, "segment_texts", fail_on_the_second_batch)
    results = segment_in_processes(segmenter, ["first", "second", "third"], batch_size=1, n_process=2)
    assert next(results).text == "first"
    with pytest.raises(WorkerFailure, match="second"):
        next(results)


def test_a_killed_worker_is_a_clear_error(model_path, tmp_path, monkeypatch):  # noqa: F811
    def die(self, texts, criteria=None):
        os._exit(9)  # as if killed for lack of memory

    # Patched before the CLI forks its workers; the parent never segments.
    monkeypatch.setattr(Segmenter, "segment_texts", die)
    source = tmp_path / "in.txt"
    source.write_text("今天天气很好。\n我们去公园。\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["segment", "--model", str(model_path), str(source), "-o", str(tmp_path / "out.txt"), "--n-process", "2"]
    )
    assert result.exit_code == 1
    assert "worker process of --n-process 2" in result.output
    assert "--resume" in result.output
