"""Where a component keeps its built inference network: per process, never pickled."""
import os


class NetworkCache:
    """The network built last, for the process that built it.

    A forked ``nlp.pipe`` worker sees no network (it builds its own: a
    session or thread pool does not survive a fork), and a pickled component
    carries none (an ONNX Runtime session does not pickle); either builds
    one on its first prediction.
    """

    def __init__(self):
        self._network = None
        self._pid = None

    def get(self):
        """The network, or None where this process has none."""
        return self._network if self._pid == os.getpid() else None

    def set(self, network) -> None:
        self._network, self._pid = network, os.getpid()

    def clear(self) -> None:
        self._network = self._pid = None

    def __getstate__(self) -> dict:
        return {}

    def __setstate__(self, state: dict) -> None:
        self.__init__()
