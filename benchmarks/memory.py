"""The memory of this process: its resident set now and its peak, in MiB."""
import sys
from typing import Optional


def proc_status_mb(pid: str, field: str) -> Optional[float]:
    """A memory field (e.g. "VmHWM") of /proc/PID/status in MiB, or None where
    it cannot be read (no procfs, or the process has ended)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def current_rss_mb() -> Optional[float]:
    """Resident memory of this process in MiB, or None where it cannot be read."""
    rss = proc_status_mb("self", "VmRSS")
    if rss is not None:
        return rss
    try:
        import psutil
    except ImportError:
        return None
    return psutil.Process().memory_info().rss / 2**20


def peak_rss_mb() -> Optional[float]:
    """Peak resident memory of this process so far in MiB, or None where unknown.

    Linux's VmHWM where it can be read: getrusage's ru_maxrss keeps the peak
    of the process that started this one across fork and exec, so a child of
    a process holding a loaded pipeline would report that pipeline's memory.
    """
    hwm = proc_status_mb("self", "VmHWM")
    if hwm is not None:
        return hwm
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in KiB on Linux and in bytes on macOS.
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10
