"""What a catalog entry asks done to its training sentences before conversion.

``CorpusFiles.held_out_days`` drops the paragraphs of those days,
``sentences`` cuts the lines into sentences, ``split_unlisted`` splits the
training file's words that the official training word list lacks,
``more_train`` adds the paragraphs of further files that the training file
lacks (more_paragraphs.py; cut, not split), and ``dev_in_train`` takes the
dev file's sentences out (in that order, so the training words of a dev
sentence found are the converted ones). A
``TrainingText`` is the ``transform`` that ``convert_corpus`` applies; once it
has run, it holds the counts ``prepare`` reports.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

from .catalog import CorpusFiles
from .dev_overlap import DevOverlap, remove_dev_sentences
from .formats import SegmentedSentence, read_segmented
from .held_out_days import held_out_lines
from .listed_words import ListedWords, split_unlisted_words
from .more_paragraphs import known_ngrams, new_paragraphs
from .sentences import split_sentences


@dataclass
class TrainingText:
    """The changes ``files`` asks for, with the counts of the last run.

    lines: training lines read; held_out: lines dropped as held-out days;
    more: paragraphs added from ``more_train``; sentences: the sentences they were cut into;
    split_words: words split (None: not asked for); overlap: the dev sentences
    found and removed (None: not asked for).
    """

    files: CorpusFiles
    assets: Path
    lines: int = 0
    held_out: int = 0
    more: int = 0
    sentences: int = 0
    split_words: Optional[int] = None
    overlap: Optional[DevOverlap] = None
    _dev: List[SegmentedSentence] = field(default_factory=list, repr=False)

    @classmethod
    def for_corpus(cls, files: CorpusFiles, assets: Path) -> Optional["TrainingText"]:
        """The transform of ``files``, or None when it asks for no change. Reads
        the dev file now when its sentences are to be taken out.
        RAISES FileNotFoundError, CorpusFormatError: as ``read_segmented``."""
        if not (
            files.sentences or files.dev_in_train or files.split_unlisted or files.held_out_days or files.more_train
        ):
            return None
        text = cls(files, Path(assets))
        if files.dev_in_train:
            text._dev = list(read_segmented(files.path(assets, "dev"), files.format_of("dev")))
        return text

    def _cut(self, sentences: List[SegmentedSentence]) -> List[SegmentedSentence]:
        if not self.files.sentences:
            return sentences
        return [SegmentedSentence(line.line_no, words) for line in sentences for words in split_sentences(line.words)]

    def __call__(self, sentences: List[SegmentedSentence]) -> List[SegmentedSentence]:
        """The training sentences, changed as the catalog entry asks.
        RAISES FileNotFoundError, CorpusFormatError: reading the word list or ``more_train`` (UTF-8)."""
        self.lines = len(sentences)
        # Known text before the held-out days go: their revised copies in the folds stay out too.
        known = known_ngrams(sentences) if self.files.more_train else None
        if self.files.held_out_days:
            held_out = held_out_lines(self.files.path(self.assets, "train"), self.files.held_out_days)
            sentences = [line for line in sentences if line.line_no not in held_out]
            self.held_out = self.lines - len(sentences)
        sentences = self._cut(sentences)
        if self.files.split_unlisted:
            # The training file's words only: the word list is the training file's (SIGHAN PKU's
            # January), and a February word it lacks is mostly a new word, not one SIGHAN split.
            word_list = read_segmented(self.files.path(self.assets, "train_words"))
            words = {word for line in word_list for word in line.words}
            sentences, self.split_words = split_unlisted_words(sentences, ListedWords(words))
        if known is not None:
            more = new_paragraphs([Path(self.assets) / relative for relative in self.files.more_train], known)
            self.more = len(more)
            sentences = sentences + self._cut(more)
        self.sentences = len(sentences)
        if self.files.dev_in_train:
            sentences, self.overlap = remove_dev_sentences(sentences, self._dev)
        return sentences
