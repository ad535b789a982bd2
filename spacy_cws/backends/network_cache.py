"""Where a component keeps its built inference network: per process, never pickled."""
import os

# Whether this process was forked from another (an ``nlp.pipe(n_process=N)``
# or ``segment --n-process N`` worker): it is one of several workers sharing
# the cores, so its network runs on one thread, as torch does there
# (fork_safety.py).
_FORKED = False


def _note_fork() -> None:
    global _FORKED
    _FORKED = True


if hasattr(os, "register_at_fork"):  # absent on Windows, which never forks
    os.register_at_fork(after_in_child=_note_fork)


def intra_op_threads(setting: int) -> int:
    """The threads of a network built in this process for the
    ``inference_threads`` setting: the setting, or for 0 (the default) 0 =
    ONNX Runtime's own choice (one per physical core), but 1 in a forked worker."""
    return setting or (1 if _FORKED else 0)


# Networks that a forked worker inherited from its parent, kept alive there:
# destroying one in the child would join the parent's ONNX Runtime (or
# OpenMP) pool threads, which a fork does not copy, and hang. A worker ends
# with os._exit, which destroys nothing.
_INHERITED: list = []


class NetworkCache:
    """The network built last, for the process that built it.

    A forked ``nlp.pipe`` worker sees no network (it builds its own: a
    thread pool (ONNX Runtime's or torch's) does not survive a fork; the parent's is kept
    alive, never destroyed there), and a pickled component carries none (an
    ONNX Runtime InferenceSession does not pickle); either builds one on its first
    prediction.
    """

    def __init__(self):
        self._network = None
        self._pid = None

    def get(self):
        """The network, or None where this process has none."""
        if self._pid != os.getpid():
            self._drop()
        return self._network

    def set(self, network) -> None:
        self._drop()
        self._network, self._pid = network, os.getpid()

    def clear(self) -> None:
        self._drop()

    def _drop(self) -> None:
        """Forget the network; one built by another process is kept alive (see _INHERITED)."""
        if self._network is not None and self._pid != os.getpid():
            _INHERITED.append(self._network)
        self._network = self._pid = None

    def __getstate__(self) -> dict:
        return {}

    def __setstate__(self, state: dict) -> None:
        self.__init__()
