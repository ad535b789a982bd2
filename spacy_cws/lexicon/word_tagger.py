"""POS tags for a training corpus's words, for the word-POS attention's training channel.

Gan & Zhang 2020 ("Investigating Self-Attention Network for Chinese Word
Segmentation", section 4.2) train on a POS-tagged treebank, so every
lexicon word carries a tag in training as at inference. Our training corpora
(CTB6 as we have it, SXU) have no POS: only words of jieba's dictionary had a
tag, and a training word jieba lacks was class X. The model then reads X as
"a word of the treebank's own kind", and a target-domain lexicon that tags
such words loses F1 (docs/experiments/accuracy.md, word-POS attention). Tagging
every training word gives X back its meaning, "no tag".

The tagger is jieba's (``jieba.posseg``, ICTCLAS tags; MIT), run on each word
alone: its dictionary tag where jieba has the word, else the tag of the
pieces its HMM cuts the word into. Chinese words are head-final, so a word
cut into pieces takes the tag of its last piece, skipping a last piece that
is a suffix (``k``, as 们 in 父亲们).
"""
import logging
from typing import Dict, Iterable

JIEBA = "jieba"
TAGGERS = (JIEBA,)
_SUFFIX = "k"


def jieba_word_tags(words: Iterable[str]) -> Dict[str, str]:
    """Each word's ICTCLAS tag from jieba's POS tagger (see the module docstring).

    words: lexicon words (non-empty strings). RETURNS {word: tag}, one entry
    per distinct word. RAISES ImportError: if jieba is not installed.
    """
    try:
        import jieba
        import jieba.posseg
    except ImportError as err:
        raise ImportError("Tagging training words with 'jieba' needs jieba: pip install jieba") from err
    jieba.setLogLevel(logging.WARNING)
    tags = {}
    for word in words:
        if word in tags:
            continue
        pieces = jieba.posseg.lcut(word, HMM=True)
        heads = [piece for piece in pieces if piece.flag != _SUFFIX] or pieces
        tags[word] = heads[-1].flag
    return tags


def word_tags(words: Iterable[str], tagger: str) -> Dict[str, str]:
    """{word: tag} from the named tagger (one of TAGGERS).

    RAISES ValueError: naming the known taggers for another name.
    """
    if tagger == JIEBA:
        return jieba_word_tags(words)
    raise ValueError(f"training_word_tagger must be one of {list(TAGGERS)} or null, got '{tagger}'")
