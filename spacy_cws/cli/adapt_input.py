"""What ``adapt`` reads before the pipeline loads: the raw text and the gold sentences, or one line saying what
is wrong."""
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from .errors import fail


def read_adaptation_input(
    raw_text: Optional[Sequence[Path]], gold: Optional[Path], lexicon_only: bool, suggest: Optional[int]
) -> Tuple[Optional[List[List[str]]], List[str]]:
    """(the gold sentences, each its words, or None without --gold; the raw
    texts: the RAW_TEXT files' lines, or without them the gold sentences' text).

    Fails (exit 1) for --gold with --lexicon-only or --suggest, for --gold
    without torch (before any work), for neither raw text nor gold, and for
    a file that cannot be read (named with its line)."""
    from ..adaptation.gold_text import read_gold_sentences
    from ..adaptation.raw_text import read_raw_texts
    from ..backends.choice import require_torch

    sentences = None
    if gold is not None:
        if lexicon_only or suggest is not None:
            other = "--lexicon-only" if lexicon_only else "--suggest"
            fail(f"--gold learns a standard; {other} learns none: pass one of them.")
        try:
            require_torch("adapt --gold (learning a standard from gold sentences)")
            sentences = read_gold_sentences(gold)
        except (ImportError, OSError, ValueError) as err:
            fail(str(err))
    if not raw_text:
        if sentences is None:
            fail("Give the raw text of your domain (RAW_TEXT files), or gold sentences with --gold.")
        return sentences, ["".join(words) for words in sentences]
    try:
        return sentences, read_raw_texts(raw_text)
    except (OSError, ValueError) as err:
        fail(str(err))
