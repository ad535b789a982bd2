"""Days of People's Daily 1998 (PFR) kept out of the training text.

A PFR line is a paragraph whose id begins with its date
(``19980129-01-001-001/m``). The last days of January are held out of the
``pku_pfr`` training text, so that a tagger's or a segmenter's scores on them
(PFR's gold words and PKU tags) are on text no model or lexicon of ours has
trained on (docs/guides/multi-criteria-and-bmes.md).
"""
from pathlib import Path
from typing import Collection, Set

from .formats import ENCODINGS, PFR_ID, read_text_lines


def held_out_lines(path: Path, days: Collection[str]) -> Set[int]:
    """The numbers (1-based, as read_segmented numbers them) of the lines of the PFR file ``path`` whose
    paragraph id is dated one of ``days`` (``YYYYMMDD``).
    RAISES FileNotFoundError; CorpusFormatError naming the line, for bytes that are not GBK."""
    lines = set()
    for line_no, text in read_text_lines(Path(path), encoding=ENCODINGS["pfr"]):
        first = text.split(maxsplit=1)
        ident = first[0].rpartition("/")[0] if first else ""
        if PFR_ID.fullmatch(ident) and ident[:8] in days:
            lines.add(line_no)
    return lines
