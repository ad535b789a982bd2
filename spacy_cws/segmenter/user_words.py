"""A segmenter's user dictionary as its ``user_dictionary_mode`` applies it.

- "force": every occurrence of a word is one word (``forced_matches``, kept
  whole by span_constraints.py).
- "prefer": the words join the model's last lexicon channel, in the lexicon
  matcher only, and their POS tags win over the channels' (``set_lexicons``);
  a model without a lexicon gets a soft bonus in decoding instead
  (dictionary_bonus.py), and so does one with
  ``user_dictionary_bonus_with_lexicon`` (``bonus_matches``). With a
  lexicon and ``user_dictionary_join_unknown_pieces``, a bonus match that
  the model cuts into a piece no lexicon knows is kept whole
  (unknown_pieces.py).

The words and their tags are kept in the component's cfg ("user_words",
"user_tags"), which the pipeline saves.
"""
from typing import Iterable, List, Optional, Sequence

import numpy

from ..features.character_view import CharacterView
from ..lexicon import Lexicon
from .featurizer import Featurizer
from .settings import USER_DICTIONARY_MODES
from .unknown_pieces import matches_kept_whole
from .user_dictionary import UserDictionary


class UserWords:
    """The user dictionary of a segmenter whose features ``featurizer`` makes,
    under its settings ``cfg`` (the component's cfg, where the words, tags,
    lexicon names and mode are kept)."""

    def __init__(self, featurizer: Featurizer, cfg: dict):
        self.featurizer = featurizer
        self.cfg = cfg
        self.dictionary = UserDictionary()

    def set_lexicons(self, channels: Sequence[dict], saved_matcher: Optional[bytes] = None) -> None:
        """Give the featurizer the lexicon channels and, in "prefer" mode, the
        user words (in the matcher only, in the last channel) and their POS
        tags (winning over the channels').

        channels: stored channels (lexicon/channel_storage.py).
        saved_matcher: the channels' matcher as saved (featurizer.py).
        """
        prefer = self.cfg["user_dictionary_mode"] == "prefer"
        extra_words = self.dictionary.words if prefer and len(self.dictionary) else ()
        extra_tags = self.cfg["user_tags"] if prefer else None
        self.featurizer.set_lexicons(channels, extra_words, extra_tags, saved_matcher)
        # The channels' names only: the words are the featurizer's, saved under its own key.
        self.cfg["lexicons"] = [{"name": name} for name in self.featurizer.lexicons]

    def set_mode(self, mode: str) -> None:
        """Switch to "force" or "prefer" (Segmenter.set_user_dictionary_mode).

        RAISES ValueError: for another mode.
        """
        if mode not in USER_DICTIONARY_MODES:
            raise ValueError(f"The user dictionary mode must be one of {USER_DICTIONARY_MODES}, got '{mode}'")
        self.cfg["user_dictionary_mode"] = mode
        self.set_lexicons(self.featurizer.channels)

    def add(self, words: Iterable[str]) -> None:
        """Add words (Segmenter.add_words; saved with the pipeline). In "force"
        mode every occurrence becomes one word (longest first, then leftmost;
        Latin words only at Latin word boundaries; see user_dictionary.py); in
        "prefer" mode they join the model's last lexicon channel. The POS tags
        of a Lexicon (e.g. read_user_dictionary's) are kept for a model with
        word slots (the target-domain word-POS lexicon of Gan & Zhang 2020; they win over
        the channels' tags).

        RAISES ValueError: for an empty word; TypeError: for a word that is not a str.
        """
        if isinstance(words, Lexicon):
            self.cfg["user_tags"].update({word: entry.pos for word, entry in words.items() if entry.pos})
        self.dictionary.add(words)
        self._words_changed()

    def remove(self, words: Iterable[str]) -> None:
        """Remove words and their POS tags (absent words are ignored)."""
        words = [words] if isinstance(words, str) else list(words)
        for word in words:
            self.cfg["user_tags"].pop(word, None)
        self.dictionary.remove(words)
        self._words_changed()

    def load(self, words: Sequence[str], tags: dict) -> None:
        """Take the words and tags of a saved cfg; the lexicons are set after (Segmenter._load_cfg)."""
        self.dictionary = UserDictionary(words)
        self.cfg["user_words"] = self.dictionary.words
        self.cfg["user_tags"] = dict(tags)

    def _words_changed(self) -> None:
        self.cfg["user_words"] = self.dictionary.words
        if self.cfg["user_dictionary_mode"] == "prefer":
            self.set_lexicons(self.featurizer.channels)

    def forced_matches(self, text: str) -> numpy.ndarray:
        """int64 (k, 2): the [start, end) words ``text`` keeps whole in "force"
        mode (UserDictionary.matches); none in "prefer" mode."""
        if self.cfg["user_dictionary_mode"] == "force" and len(self.dictionary):
            return self.dictionary.matches(text)
        return numpy.zeros((0, 2), dtype=numpy.int64)

    def whole_spans(
        self, text: str, view: CharacterView, words: numpy.ndarray, bonus_matches: Optional[numpy.ndarray]
    ) -> numpy.ndarray:
        """int64 (k, 2): the [start, end) spans of ``text`` that stay one word
        each: in "force" mode every user word's match (``forced_matches``); in
        "prefer" mode, with ``user_dictionary_join_unknown_pieces`` and a
        lexicon to tell known words, the ``bonus_matches`` that the model's
        ``words`` cut into a piece no lexicon knows (unknown_pieces.py).

        view: the text's units. words: int64 (n, 2), the model's words.
        bonus_matches: the text's ``bonus_matches``, or None.
        """
        matcher = self.featurizer.matcher
        if bonus_matches is None or matcher is None or not self.cfg.get("user_dictionary_join_unknown_pieces", False):
            return self.forced_matches(text)
        return matches_kept_whole(view, words, bonus_matches, matcher.knows)

    def prefers_by_bonus(self) -> bool:
        """"prefer" mode, user words, and no lexicon features to put them in
        (or ``user_dictionary_bonus_with_lexicon``: the bonus as well)."""
        return (
            self.cfg["user_dictionary_mode"] == "prefer"
            and (not self.featurizer.channels or self.cfg.get("user_dictionary_bonus_with_lexicon", False))
            and len(self.dictionary) > 0
        )

    def bonus_matches(self, texts: Sequence[str]) -> Optional[List[numpy.ndarray]]:
        """Per text the user words that get the decoding bonus
        (UserDictionary.matches), or None where ``prefers_by_bonus`` is not."""
        return [self.dictionary.matches(text) for text in texts] if self.prefers_by_bonus() else None
