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
from .evaluation_checks import TEST_DOCS, TRAIN_WORDS, check_evaluation_files
from .sighan import score_files


def segment(nlp: Language, texts: Iterable[str], batch_size: int) -> List[Doc]:
    """Run the pipeline over texts with nlp.pipe."""
    return list(nlp.pipe(texts, batch_size=batch_size))


def system_line(doc: Doc) -> str:
    """A segmented line: the Doc's non-whitespace tokens separated by one space."""
    return " ".join(token.text for token in doc if not token.is_space)


def evaluate_corpus(nlp: Language, corpus_dir: Path, system_output: Path, batch_size: int = 256) -> Dict:
    """Segment the test set and score it.

    corpus_dir: the prepared corpus (test_input.utf8, test_gold.utf8,
        train_words.txt, test.spacy).
    system_output: where the segmented test lines are written (UTF-8, "\\n").
    RETURNS: {"official": SIGHAN measures (fractions) and word counts,
              "spacy": token_acc/p/r/f, "speed": characters, seconds, chars_per_second, batch_size,
        precision (the segmenter's, "auto" resolved; None without one)}.
    RAISES FileNotFoundError, LineMismatchError, CorpusFormatError and
        ValueError as check_evaluation_files (evaluation_checks.py) does.
    """
    corpus_dir = Path(corpus_dir)
    check_evaluation_files(corpus_dir)
    lines = list_text_lines(corpus_dir / TEST_INPUT)
    start = time.perf_counter()
    docs = segment(nlp, lines, batch_size)
    seconds = time.perf_counter() - start
    system_output.parent.mkdir(parents=True, exist_ok=True)
    system_output.write_bytes("".join(system_line(doc) + "\n" for doc in docs).encode("utf-8"))
    # The system lines are the input lines, checked against the gold above;
    # the official MSR and AS gold files differ from their official input on
    # a few lines, which the official (Perl) measures score as they are.
    official = score_files(corpus_dir / TEST_GOLD, system_output, corpus_dir / TRAIN_WORDS, perl_compat=True)
    # test.spacy holds the gold's sentences: where one is not an input line
    # (MSR, AS), it is segmented on its own.
    predicted = {doc.text: doc for doc in docs}
    references = list(DocBin().from_disk(corpus_dir / TEST_DOCS).get_docs(nlp.vocab))
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
