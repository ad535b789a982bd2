"""A benchmark child reports its own peak memory, not its parent's."""
import subprocess
import sys

import numpy
import pytest

from spacy_cws.benchmark.run import peak_rss_mb, proc_status_mb


@pytest.mark.skipif(proc_status_mb("self", "VmHWM") is None, reason="needs Linux's /proc")
def test_a_child_process_does_not_inherit_the_parents_peak():
    ballast = numpy.ones(400 * 2**20 // 8)  # 400 MiB, touched
    parent_peak = peak_rss_mb()
    child = subprocess.run(
        [sys.executable, "-c", "from spacy_cws.benchmark.run import peak_rss_mb; print(peak_rss_mb())"],
        capture_output=True, text=True, check=True,
    )
    child_peak = float(child.stdout.strip())
    assert ballast.sum() > 0 and parent_peak > 400
    # getrusage's ru_maxrss would give the child at least the parent's peak.
    assert 0 < child_peak < parent_peak - 300
