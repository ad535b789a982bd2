"""Lexicons (words with optional frequency and POS) and their per-character match features."""
from .lexicon import Lexicon, LexiconEntry
from .sources import jieba_lexicon, load_lexicon, read_user_dictionary, training_lexicon
from .match_features import LexiconMatcher, BITS_PER_CHANNEL

__all__ = [
    "Lexicon",
    "LexiconEntry",
    "LexiconMatcher",
    "BITS_PER_CHANNEL",
    "jieba_lexicon",
    "load_lexicon",
    "read_user_dictionary",
    "training_lexicon",
]
