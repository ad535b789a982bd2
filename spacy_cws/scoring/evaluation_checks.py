"""Check a prepared corpus before ``evaluate`` segments its test set: its
files are there and say the same sentences, so that no score is computed on
other text.

``prepare`` writes the test input (the official input where a corpus has one,
else the gold words joined), the gold in the SIGHAN format and ``test.spacy``,
one Doc per gold sentence. The official MSR and AS gold files differ from
their input on a few lines, by a character or two in one place (see
line_alignment.check_line_alignment), so the gold is checked against the
input with that much leeway, and ``test.spacy`` against the gold exactly.
"""
from pathlib import Path

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from ..corpora.evaluation_files import TEST_GOLD, TEST_INPUT
from ..corpora.formats import read_segmented
from .line_alignment import check_line_alignment, check_word_list
from .sighan import read_byte_lines

TEST_DOCS = "test.spacy"
TRAIN_WORDS = "train_words.txt"
EVALUATION_FILES = (TEST_INPUT, TEST_GOLD, TRAIN_WORDS, TEST_DOCS)
# Characters a gold line may differ from its input line by, in one place:
# MSR's gold moves an opening quotation mark to the end of the line before
# (16 lines), AS's has an ASCII letter for its input's full-width one (1 line).
GOLD_INPUT_DIFFERENCE = 2
RUN_PREPARE = "run the prepare command again"


def check_evaluation_files(corpus_dir: Path) -> None:
    """Check a prepared corpus before its test set is segmented: its files
    are there, each gold line is its test input line segmented (up to
    GOLD_INPUT_DIFFERENCE characters in one place, as the official MSR and AS
    files differ), test.spacy holds the gold's sentences (check_test_docs)
    and the training word list is UTF-8 and not empty (as ``score`` checks it).

    RAISES FileNotFoundError: naming a missing file of corpus_dir;
        LineMismatchError: naming the first gold line that is missing, extra
        or not its input line's characters (e.g. a truncated or shifted gold
        file); CorpusFormatError: for a gold, input or word list line that
        is not UTF-8; ValueError: for an empty word list, or a test.spacy
        that does not hold the gold's sentences.
    """
    for name in EVALUATION_FILES:
        if not (corpus_dir / name).is_file():
            raise FileNotFoundError(f"{corpus_dir / name} is missing: run the prepare command first")
    gold, test_input = corpus_dir / TEST_GOLD, corpus_dir / TEST_INPUT
    check_line_alignment(
        read_byte_lines(gold), read_byte_lines(test_input), gold, test_input, max_difference=GOLD_INPUT_DIFFERENCE
    )
    check_test_docs(corpus_dir / TEST_DOCS, gold)
    words = corpus_dir / TRAIN_WORDS
    check_word_list(read_byte_lines(words), words)


def check_test_docs(docs_path: Path, gold_path: Path) -> None:
    """Check that the DocBin ``docs_path`` holds one Doc per sentence (line
    with words) of the SIGHAN-format gold file ``gold_path``, in order, each
    Doc's text the sentence's words joined, as ``prepare`` writes them.

    RAISES ValueError naming the first Doc whose text is not its sentence,
        or the counts when there are fewer or more Docs than sentences;
        CorpusFormatError for a gold line that is not UTF-8.
    """
    docs = DocBin().from_disk(docs_path)
    # Texts only: unpacking each Doc's user data (its criterion) would take
    # most of the time.
    docs.user_data = []
    texts = [doc.text for doc in docs.get_docs(Vocab())]
    sentences = list(read_segmented(gold_path))
    for number, (text, sentence) in enumerate(zip(texts, sentences), start=1):
        if text != "".join(sentence.words):
            raise ValueError(
                f"{docs_path}: Doc {number} is {text!r}, not sentence {number} of {gold_path} "
                f"(line {sentence.line_no}) {''.join(sentence.words)!r}: it must hold the gold's sentences "
                f"in order; {RUN_PREPARE}"
            )
    if len(texts) != len(sentences):
        raise ValueError(
            f"{docs_path} holds {len(texts)} Docs but {gold_path} has {len(sentences)} sentences "
            f"(lines with words): it must hold one Doc per gold sentence; {RUN_PREPARE}"
        )
