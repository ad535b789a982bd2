"""``segment --resume``: find where an interrupted run's output stopped.

The output has one line per input line, each ended by ``\\n`` (jsonl escapes
every line separator inside a record), so its complete lines are the first
input lines' results. A line cut short by the interruption is removed.
"""
from pathlib import Path

CHUNK_BYTES = 1 << 20


def complete_lines(path: Path) -> int:
    """Number of complete (``\\n``-ended) lines in ``path``, after cutting off
    an incomplete last line; 0 if ``path`` does not exist. Memory: one chunk
    (CHUNK_BYTES), whatever the file's size.

    RAISES OSError when the file cannot be read or truncated.
    """
    if not path.exists():
        return 0
    lines = end = offset = 0
    with open(path, "r+b") as stream:
        while chunk := stream.read(CHUNK_BYTES):
            count = chunk.count(b"\n")
            if count:
                lines += count
                end = offset + chunk.rindex(b"\n") + 1
            offset += len(chunk)
        stream.truncate(end)
    return lines
