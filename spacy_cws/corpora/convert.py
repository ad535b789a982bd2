"""Convert a segmented corpus file to spaCy ``DocBin`` files.

Each sentence becomes one ``Doc`` whose text is the raw sentence, the words
joined without spaces (the SIGHAN convention: Chinese text has no spaces
between words), whose tokens are the gold words and whose ``doc._.cws_criterion``
names the segmentation standard, kept in the DocBin's user data.
"""
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Union

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab
from tqdm import tqdm

from .formats import ReadStats, SegmentedSentence, read_segmented


@dataclass
class OutputCounts:
    """What one output file holds: sentences (Docs), words (tokens) and
    characters (non-whitespace, i.e. the length of the Doc texts)."""

    path: Path
    sentences: int
    words: int
    chars: int


@dataclass
class ConversionReport:
    """The result of ``convert_corpus``.

    lines: lines in the input file, blank ones included.
    blank_lines: blank or whitespace-only input lines, skipped (not sentences).
    outputs: the training DocBin first, then the dev DocBin if one was written.
    word_types: lines written to ``words_output`` (None if none was asked for).
    """

    input_path: Path
    criterion: str
    lines: int
    blank_lines: int
    outputs: List[OutputCounts]
    words_output: Optional[Path] = None
    word_types: Optional[int] = None


def dev_size(n_sentences: int, dev_fraction: float) -> int:
    """Number of sentences held out for dev: ceil(n_sentences * dev_fraction).

    Ceil matches greedyCWS's data/split.py (train = int(0.9 * n), dev the rest),
    which made the PKU/MSR dev splits used in the literature.
    """
    # Round first, so float noise (0.1 * 30 == 3.0000000000000004) cannot
    # push the ceiling up by one.
    return math.ceil(round(n_sentences * dev_fraction, 6))


def convert_corpus(
    input_path: Union[str, Path],
    output_path: Union[str, Path],
    *,
    fmt: str = "sighan",
    criterion: str,
    dev_output: Optional[Union[str, Path]] = None,
    dev_fraction: float = 0.1,
    words_output: Optional[Union[str, Path]] = None,
    vocab: Optional[Vocab] = None,
    transform: Optional[Callable[[List[SegmentedSentence]], List[SegmentedSentence]]] = None,
) -> ConversionReport:
    """Convert a segmented corpus file to a DocBin (``.spacy``) file.

    input_path: corpus file, read by ``read_segmented`` in format ``fmt``.
    output_path: DocBin for the training sentences (parent folders are made).
    criterion: stored in every ``doc._.cws_criterion``, e.g. "ctb6".
    dev_output: if given, the LAST ``dev_size(n, dev_fraction)`` sentences go
        to this DocBin instead of ``output_path``; file order is kept in both.
    dev_fraction: share of sentences for dev, 0 < dev_fraction < 1.
    words_output: if given, write the sorted unique words of the sentences in
        ``output_path``, one per line (UTF-8, "\\n"): the training word list the
        SIGHAN scorer needs for its OOV measures.
    vocab: vocab for the Docs; a new empty one by default.
    transform: applied to the sentences read, before the dev split (e.g. a
        ``training_text.TrainingText``); what it returns is converted.

    Raises ValueError for a bad ``fmt``, ``criterion`` or ``dev_fraction``
    or an input without a sentence (empty, or blank lines only, or none left
    by ``transform``), FileNotFoundError for a missing input, and
    CorpusFormatError (a ValueError) for an unreadable input line, all before
    anything is written; and what ``transform`` raises.
    """
    if not criterion:
        raise ValueError("criterion must be a non-empty string")
    if not 0 < dev_fraction < 1:
        raise ValueError(f"dev_fraction must be between 0 and 1 (exclusive), got {dev_fraction}")
    input_path = Path(input_path)
    stats = ReadStats()
    # Read everything first: the dev split needs the sentence count, and the
    # word lists are small next to the DocBins built from them.
    sentences = list(read_segmented(input_path, fmt, stats))
    if not sentences:
        raise ValueError(
            f"{input_path} holds no sentence ({stats.lines} line(s), none with a word): nothing to convert"
        )
    if transform is not None:
        sentences = transform(sentences)
        if not sentences:
            raise ValueError(f"{input_path}: no sentence left to convert once changed as its corpus asks")
    n_dev = dev_size(len(sentences), dev_fraction) if dev_output is not None else 0
    n_train = len(sentences) - n_dev
    parts = [(Path(output_path), sentences[:n_train])]
    if dev_output is not None:
        parts.append((Path(dev_output), sentences[n_train:]))
    vocab = vocab if vocab is not None else Vocab()
    # Building the DocBins is the slow part (mostly DocBin.add packing user
    # data), so the progress bar goes here.
    # disable=None: no bar when stderr is not a terminal (logs, CI).
    progress = tqdm(
        total=len(sentences), unit="sent", desc=input_path.name, leave=False, disable=None
    )
    with progress:
        for path, part in parts:
            doc_bin = DocBin(store_user_data=True)
            for sentence in part:
                doc_bin.add(_make_doc(vocab, sentence.words, criterion))
                progress.update()
            path.parent.mkdir(parents=True, exist_ok=True)
            doc_bin.to_disk(path)
    report = ConversionReport(
        input_path=input_path,
        criterion=criterion,
        lines=stats.lines,
        blank_lines=stats.blank_lines,
        outputs=[_count(path, part) for path, part in parts],
    )
    if words_output is not None:
        words = sorted({word for sentence in parts[0][1] for word in sentence.words})
        report.words_output = Path(words_output)
        report.words_output.parent.mkdir(parents=True, exist_ok=True)
        # Bytes, so the line end is "\n" whatever the platform.
        report.words_output.write_bytes("".join(word + "\n" for word in words).encode("utf-8"))
        report.word_types = len(words)
    return report


def _make_doc(vocab: Vocab, words: List[str], criterion: str) -> Doc:
    doc = Doc(vocab, words=words, spaces=[False] * len(words))
    doc._.cws_criterion = criterion
    return doc


def _count(path: Path, sentences: Sequence[SegmentedSentence]) -> OutputCounts:
    return OutputCounts(
        path=path,
        sentences=len(sentences),
        words=sum(len(s.words) for s in sentences),
        chars=sum(len(word) for s in sentences for word in s.words),
    )
