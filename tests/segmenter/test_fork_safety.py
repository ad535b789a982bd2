"""``nlp.pipe(texts, n_process=2)`` with torch's default thread settings
(issue 19, item 7): forked workers used to wait forever on the parent's torch
thread pool. Each run is a fresh interpreter with a time limit, because a
regression hangs rather than fails."""
import importlib.util
import json
import os
import signal
import subprocess
import sys

import pytest

from ..segmentation_data import TEXTS

# Segments TEXTS (argv[2], JSON) in one process, then, in the same process
# (torch's thread pool now started), with two forked workers, and prints both.
PIPE_TWICE = """
import json, sys
import spacy
nlp = spacy.load(sys.argv[1])
texts = json.loads(sys.argv[2]) * 4
words = lambda docs: [[t.text for t in doc] for doc in docs]
single = words(nlp.pipe(texts, batch_size=3))
forked = words(nlp.pipe(texts, batch_size=3, n_process=2))
print(json.dumps({"single": single, "forked": forked, "texts": ["".join(w) for w in forked]}))
"""
TIME_LIMIT_S = 120


def _pipe_in_fresh_process(model: str) -> dict:
    """Run PIPE_TWICE on ``model`` (a package name or folder) with torch's
    default threads: no OMP/MKL thread variables, nothing set in the script."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    # A process group of its own (start_new_session), so that a hung run's forked workers are ended too.
    with subprocess.Popen(
        [sys.executable, "-c", PIPE_TWICE, model, json.dumps(TEXTS)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"nlp.pipe(n_process=2) did not return within {TIME_LIMIT_S} s")
    assert process.returncode == 0, stderr
    return json.loads(stdout)


def test_two_processes_finish_and_match_one_with_a_trained_segmenter(trained_nlp, tmp_path):
    trained_nlp.to_disk(tmp_path / "nlp")
    result = _pipe_in_fresh_process(str(tmp_path / "nlp"))
    assert result["forked"] == result["single"]
    assert result["texts"] == TEXTS * 4
    assert any(len(word) > 1 for words in result["forked"] for word in words)


@pytest.mark.skipif(importlib.util.find_spec("zh_cws_gd") is None, reason="zh_cws_gd is not installed")
def test_two_processes_finish_and_match_one_with_zh_cws_gd():
    result = _pipe_in_fresh_process("zh_cws_gd")
    assert result["forked"] == result["single"]
    assert result["texts"] == TEXTS * 4
