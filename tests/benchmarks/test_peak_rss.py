"""A benchmark worker reports its own peak memory, not its parent's."""
from pathlib import Path

import numpy
import pytest

from .harness import run_worker, write_test_set


def _vm_hwm_mb() -> float:
    """This process's peak resident memory (Linux's VmHWM) in MiB."""
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux's /proc")
def test_a_child_process_does_not_inherit_the_parents_peak(tmp_path):
    prepared = write_test_set(tmp_path / "assets", ["新华社北京二月十二日电"])
    ballast = numpy.ones(400 * 2**20 // 8)  # 400 MiB, touched
    parent_peak = _vm_hwm_mb()
    child_peak = run_worker(prepared, "char", "spacy-zh-char")["peak_rss_mb"]
    assert ballast.sum() > 0 and parent_peak > 400
    # getrusage's ru_maxrss would give the child at least the parent's peak.
    assert 0 < child_peak < parent_peak - 300
