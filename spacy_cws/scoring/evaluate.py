"""Evaluate a segmentation pipeline on a catalogued corpus's test set.

Segments the official test input line by line (or, where a corpus has none,
its gold lines with the spaces removed), writes the system output in the
SIGHAN format, and scores it two ways: the official SIGHAN measures (the
exact port of the icwb2 ``score`` script, against the training word list) and
spaCy's tokenization P/R/F over the test DocBin.
"""
import re
import time
from pathlib import Path
from typing import Dict, Iterable, List

from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from ..corpora.catalog import CorpusFiles
from .sighan import score_files

# Line ends as the corpus readers see them; str.splitlines would also split on
# U+2028, U+0085 and other characters that can occur inside a sentence.
_LINE_END = re.compile(r"\r\n|\r|\n")


def read_lines(path: Path) -> List[str]:
    """A UTF-8 file's lines without their line ends (a BOM is kept, as the SIGHAN scorer keeps it)."""
    text = Path(path).read_bytes().decode("utf-8")
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def test_input_lines(files: CorpusFiles, assets: Path) -> List[str]:
    """The raw test lines: the official input, or the gold lines with whitespace removed."""
    if files.test_raw is not None:
        return read_lines(files.path(assets, "test_raw"))
    return ["".join(line.split()) for line in read_lines(files.path(assets, "test_gold"))]


def segment(nlp: Language, texts: Iterable[str], batch_size: int) -> List[Doc]:
    """Run the pipeline over texts with nlp.pipe."""
    return list(nlp.pipe(texts, batch_size=batch_size))


def system_line(doc: Doc) -> str:
    """A segmented line: the Doc's non-whitespace tokens separated by one space."""
    return " ".join(token.text for token in doc if not token.is_space)


def evaluate_corpus(
    nlp: Language,
    files: CorpusFiles,
    assets: Path,
    corpus_dir: Path,
    system_output: Path,
    batch_size: int = 256,
) -> Dict:
    """Segment the test set and score it.

    corpus_dir: the prepared corpus (test.spacy, train_words.txt).
    system_output: where the segmented test lines are written (UTF-8, "\\n").
    RETURNS: {"official": SIGHAN measures (fractions) and word counts,
              "spacy": token_acc/p/r/f, "speed": characters, seconds, chars_per_second}.
    """
    lines = test_input_lines(files, assets)
    start = time.perf_counter()
    docs = segment(nlp, lines, batch_size)
    seconds = time.perf_counter() - start
    system_output.parent.mkdir(parents=True, exist_ok=True)
    system_output.write_bytes("".join(system_line(doc) + "\n" for doc in docs).encode("utf-8"))
    official = score_files(files.path(assets, "test_gold"), system_output, corpus_dir / "train_words.txt")
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
        },
    }
