"""Finding a dev set's sentences in a training text, and taking them out of it.

SIGHAN 2005 PKU's training set is People's Daily January 1998 (PFR), revised;
the PKU dev sample holds some of its paragraphs, cut into pieces at 。？！； and
at some ，、 (the closing quote after a stop begins the next piece). So the
pieces are joined back where such a cut fell (after ，or 、, or before a piece
that begins with a stop or closing quote) and cut again as the training text
is cut (``sentences.split_sentences``): the same text gives the same sentences
on both sides, and a training sentence whose text is a dev sentence's (or a
dev piece's: a line of a poem, cut at its ，, is a PFR paragraph) is taken
out. So is a training sentence that holds a whole dev piece of at least
``LONG_PIECE`` characters: a dev sentence that SIGHAN revised (so that it is
no training sentence) keeps most of its pieces unchanged, and a sentence may
be quoted inside a longer one. The official training file keeps a few PFR
paragraph ids inside its lines (``19980114-02-001-021``); for the matching
only they end a sentence and are dropped. Texts are compared by their
characters, never their words, since the two segmentations differ a little.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

from .formats import PFR_ID, SegmentedSentence
from .sentences import CLOSERS, STOPS, split_sentences

# What ``write_found`` writes: the dev sentences found, one a line, as the dev
# file and as the training text segment them (for ``python -m spacy_cws score``).
FOUND_DEV = "dev_found_gold.utf8"
FOUND_TRAIN = "dev_found_train.utf8"

SOFT_CUTS = frozenset("，、")  # where the samples' pieces were cut only sometimes
LONG_PIECE = 20  # characters: a dev piece this long inside a training sentence takes it out
_CONTINUES = STOPS | CLOSERS  # a piece beginning with one of these continues the one before


@dataclass
class DevOverlap:
    """What ``remove_dev_sentences`` found.

    dev_sentences, dev_chars: the dev set's sentences (cut as the training
    text is) and their characters; found, found_chars: those that are also
    training sentences; removed: training sentences equal to a dev sentence
    or piece, taken out (a text can occur more than once); holding: other training
    sentences taken out for holding a dev piece of ``LONG_PIECE`` characters
    or more; pairs: for each dev sentence found, in dev order, its dev words
    and the training text's words for it.
    """

    dev_sentences: int = 0
    dev_chars: int = 0
    found: int = 0
    found_chars: int = 0
    removed: int = 0
    holding: int = 0
    pairs: List[Tuple[List[str], List[str]]] = field(default_factory=list)


def dev_sentences(pieces: Iterable[SegmentedSentence]) -> List[List[str]]:
    """The dev pieces joined where a cut fell inside a sentence and cut again
    at the stops, without the PFR paragraph ids: the dev sentences as words."""
    blocks: List[List[str]] = []
    for piece in pieces:
        if blocks and (blocks[-1][-1][-1] in SOFT_CUTS or piece.words[0][0] in _CONTINUES):
            blocks[-1].extend(piece.words)
        else:
            blocks.append(list(piece.words))
    sentences = []
    for block in blocks:
        for part in _between_ids(block):
            sentences.extend(split_sentences(part))
    return sentences


def remove_dev_sentences(
    train: Iterable[SegmentedSentence], pieces: List[SegmentedSentence]
) -> Tuple[List[SegmentedSentence], DevOverlap]:
    """The training sentences that are no dev sentence or piece and hold no
    long dev piece (see the module docstring), and what was found.

    train: the training text, cut into sentences by ``sentences.split_sentences``.
    pieces: the dev file's sentences, in file order.
    """
    dev = dev_sentences(pieces)
    piece_texts = ["".join(piece.words) for piece in pieces]
    dev_texts = {"".join(words) for words in dev}.union(piece_texts)
    long_pieces = _by_prefix(piece_texts)
    kept: List[SegmentedSentence] = []
    found: Dict[str, List[str]] = {}
    overlap = DevOverlap(dev_sentences=len(dev))
    for sentence in train:
        text = "".join(sentence.words)
        if text in dev_texts:
            found.setdefault(text, sentence.words)
            overlap.removed += 1
        elif _holds(text, long_pieces):
            overlap.holding += 1
        else:
            kept.append(sentence)
    for words in dev:
        text = "".join(words)
        overlap.dev_chars += len(text)
        if text in found:
            overlap.found += 1
            overlap.found_chars += len(text)
            overlap.pairs.append((words, found[text]))
    return kept, overlap


def write_found(overlap: DevOverlap, out_dir: Path) -> Tuple[Path, Path]:
    """Write ``FOUND_DEV`` and ``FOUND_TRAIN`` into ``out_dir``: the dev sentences
    found, words separated by a space, as the dev file and as the training text
    segment them; line N of each is the same text. RETURNS their paths."""
    paths = Path(out_dir) / FOUND_DEV, Path(out_dir) / FOUND_TRAIN
    for path, side in zip(paths, (0, 1)):
        path.write_bytes("".join(" ".join(pair[side]) + "\n" for pair in overlap.pairs).encode("utf-8"))
    return paths


def _by_prefix(texts: Iterable[str]) -> Dict[str, List[str]]:
    """The texts of LONG_PIECE characters or more, by their first LONG_PIECE characters."""
    by_prefix: Dict[str, List[str]] = {}
    for text in texts:
        if len(text) >= LONG_PIECE:
            by_prefix.setdefault(text[:LONG_PIECE], []).append(text)
    return by_prefix


def _holds(text: str, by_prefix: Dict[str, List[str]]) -> bool:
    for start in range(len(text) - LONG_PIECE + 1):
        candidates = by_prefix.get(text[start : start + LONG_PIECE])
        if candidates and any(text.startswith(piece, start) for piece in candidates):
            return True
    return False


def _between_ids(words: List[str]) -> List[List[str]]:
    parts: List[List[str]] = [[]]
    for word in words:
        if PFR_ID.fullmatch(word):
            parts.append([])
        else:
            parts[-1].append(word)
    return [part for part in parts if part]
