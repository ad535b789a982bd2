"""Make torch safe in processes forked from one that already ran it.

``nlp.pipe(texts, n_process=2)`` forks worker processes on Linux. A child of a
process whose torch intra-op thread pool (OpenMP) has started inherits that
pool's state but none of its threads, and its first parallel operation waits
forever for them. The child therefore runs torch on one thread: it is one of
several workers sharing the cores, so this costs nothing. Importing this
module registers the hook (once per process); spaCy-cws's torch components
import it.
"""
import os

import torch


def use_one_torch_thread() -> None:
    """Run torch's intra-op work on the calling thread only (1 thread)."""
    torch.set_num_threads(1)


if hasattr(os, "register_at_fork"):  # absent on Windows, which never forks
    os.register_at_fork(after_in_child=use_one_torch_thread)
