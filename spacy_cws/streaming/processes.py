"""Forked worker processes for a pipeline that only segments (``segment
--n-process N``, segmentation.segment_lines): they return word offsets, not Docs.

spaCy's ``nlp.pipe(n_process=N)`` sends every Doc back to the parent as
``Doc.to_bytes`` and rebuilds it with ``Doc.from_bytes``. For the CTB6 test
text that costs about as much as segmenting it in one process
(docs/experiments/inference.md, `segment --n-process`), so N processes were slower than
one. Here a worker returns, per text, the int64 (n_words, 2) offsets of its
words: a few bytes a word. A ``concurrent.futures`` pool (not a hand-written
one) runs the batches; at most ``2 * N`` batches are in flight, so memory
stays bounded on a stream of any length, and results are yielded in input
order.
"""
import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Deque, Iterable, Iterator, List, Optional, Tuple

import numpy

from ..segmenter.component import Segmenter
from ..segmenter.merge_words import SegmentedText

# The segmenter of this worker process, inherited from the parent at fork.
_worker_segmenter: Optional[Segmenter] = None


def can_fork() -> bool:
    """Whether this platform starts processes by fork (Linux): the workers then
    share the parent's loaded pipeline instead of loading their own."""
    return "fork" in multiprocessing.get_all_start_methods()


def _keep_segmenter(segmenter: Segmenter) -> None:
    """Worker initializer: remember the segmenter inherited at fork."""
    global _worker_segmenter
    _worker_segmenter = segmenter


def _segment_batch(texts: List[str]) -> List[numpy.ndarray]:
    """Worker task: per text its int64 (n_words, 2) word offsets (Segmenter.segment_texts)."""
    return _worker_segmenter.segment_texts(texts)


def segment_in_processes(
    segmenter: Segmenter, texts: Iterable[str], batch_size: int, n_process: int
) -> Iterator[SegmentedText]:
    """Per text, lazily and in input order, its words, segmented by ``n_process``
    forked workers ``batch_size`` texts at a time.

    The same words as ``segmenter.segment_texts`` in this process
    (tests/cli/test_segment_processes.py). Each worker runs torch on one
    thread (spacy_cws/fork_safety.py).
    RAISES RuntimeError: where processes cannot be forked (see ``can_fork``).
    Whatever a worker raises is raised here, at that batch.
    """
    if not can_fork():
        raise RuntimeError("segment_in_processes needs the fork start method (Linux).")
    context = multiprocessing.get_context("fork")
    texts = iter(texts)
    batches = iter(lambda: list(islice(texts, batch_size)), [])
    in_flight: Deque[Tuple[List[str], Future]] = deque()
    with ProcessPoolExecutor(n_process, mp_context=context, initializer=_keep_segmenter, initargs=(segmenter,)) as pool:
        for batch in batches:
            in_flight.append((batch, pool.submit(_segment_batch, batch)))
            if len(in_flight) >= 2 * n_process:
                yield from _finished(*in_flight.popleft())
        while in_flight:
            yield from _finished(*in_flight.popleft())


def _finished(batch: List[str], future: Future) -> Iterator[SegmentedText]:
    """The texts of one batch with their words, once its worker is done."""
    for text, words in zip(batch, future.result()):
        yield SegmentedText(text, words)
