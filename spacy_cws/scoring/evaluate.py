"""Evaluate a segmentation pipeline on a prepared corpus's test set.

Segments the test input line by line (``prepare`` writes it: the official
input where a corpus has one, else the gold words joined), writes the system
output in the SIGHAN format, and scores it two ways: the official SIGHAN
measures (the exact port of the icwb2 ``score`` script, against the training
word list) and spaCy's tokenization P/R/F over the test DocBin.
"""
import time
from pathlib import Path
from typing import Dict, Iterable, List

from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from ..corpora.evaluation_files import TEST_GOLD, TEST_INPUT, list_text_lines
from ..segmenter.pipeline_segmenters import inference_precision_of
from .line_alignment import check_line_alignment, check_word_list
from .sighan import read_byte_lines, score_files

EVALUATION_FILES = (TEST_INPUT, TEST_GOLD, "train_words.txt", "test.spacy")


def segment(nlp: Language, texts: Iterable[str], batch_size: int) -> List[Doc]:
    """Run the pipeline over texts with nlp.pipe."""
    return list(nlp.pipe(texts, batch_size=batch_size))


def system_line(doc: Doc) -> str:
    """A segmented line: the Doc's non-whitespace tokens separated by one space."""
    return " ".join(token.text for token in doc if not token.is_space)


def check_evaluation_files(corpus_dir: Path) -> None:
    """Check a prepared corpus before its test set is segmented: its files
    are there, the gold has one line per test input line (as ``score``
    checks a system file, without comparing characters: the official MSR
    and AS gold files differ from their input on a few lines) and the
    training word list is UTF-8 and not empty (as ``score`` checks it).

    RAISES FileNotFoundError: naming a missing file of corpus_dir;
        LineMismatchError: when the gold and input line counts differ (e.g. a
        truncated gold file); CorpusFormatError: for a gold, input or word
        list line that is not UTF-8; ValueError: for an empty word list.
    """
    for name in EVALUATION_FILES:
        if not (corpus_dir / name).is_file():
            raise FileNotFoundError(f"{corpus_dir / name} is missing: run the prepare command first")
    gold, test_input = corpus_dir / TEST_GOLD, corpus_dir / TEST_INPUT
    check_line_alignment(read_byte_lines(gold), read_byte_lines(test_input), gold, test_input, same_characters=False)
    words = corpus_dir / "train_words.txt"
    check_word_list(read_byte_lines(words), words)


def evaluate_corpus(nlp: Language, corpus_dir: Path, system_output: Path, batch_size: int = 256) -> Dict:
    """Segment the test set and score it.

    corpus_dir: the prepared corpus (test_input.utf8, test_gold.utf8,
        train_words.txt, test.spacy).
    system_output: where the segmented test lines are written (UTF-8, "\\n").
    RETURNS: {"official": SIGHAN measures (fractions) and word counts,
              "spacy": token_acc/p/r/f, "speed": characters, seconds, chars_per_second, batch_size,
        precision (the segmenter's, "auto" resolved; None without one)}.
    RAISES FileNotFoundError, LineMismatchError, CorpusFormatError and
        ValueError as check_evaluation_files does.
    """
    corpus_dir = Path(corpus_dir)
    check_evaluation_files(corpus_dir)
    lines = list_text_lines(corpus_dir / TEST_INPUT)
    start = time.perf_counter()
    docs = segment(nlp, lines, batch_size)
    seconds = time.perf_counter() - start
    system_output.parent.mkdir(parents=True, exist_ok=True)
    system_output.write_bytes("".join(system_line(doc) + "\n" for doc in docs).encode("utf-8"))
    # The system lines are the input lines, so they are aligned by construction;
    # the official MSR and AS gold files differ from their official input on
    # a few lines, which the official (Perl) measures score as they are.
    official = score_files(corpus_dir / TEST_GOLD, system_output, corpus_dir / "train_words.txt", perl_compat=True)
    predicted = {doc.text: doc for doc in docs}
    references = list(DocBin().from_disk(corpus_dir / "test.spacy").get_docs(nlp.vocab))
    missing = [ref.text for ref in references if ref.text not in predicted]
    for doc in segment(nlp, missing, batch_size):
        predicted[doc.text] = doc
    examples = [Example(predicted[ref.text], ref) for ref in references]
    characters = sum(len(line) for line in lines)
    return {
        "official": official.to_dict(),
        "spacy": Scorer.score_tokenization(examples),
        "speed": {
            "characters": characters,
            "seconds": seconds,
            "chars_per_second": characters / seconds if seconds else None,
            "batch_size": batch_size,
            "precision": inference_precision_of(nlp),
        },
    }
