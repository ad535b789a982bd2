"""The files a corpus is evaluated on: its test input and gold, aligned line
by line, as the SIGHAN scorer reads them (``prepare`` writes them, ``evaluate``
reads them)."""
from pathlib import Path
from typing import List, Tuple

from .catalog import CorpusFiles
from .formats import read_segmented, read_text_lines

TEST_INPUT = "test_input.utf8"
TEST_GOLD = "test_gold.utf8"


def list_text_lines(path: Path) -> List[str]:
    """A UTF-8 file's decoded lines as a list (formats.read_text_lines without the line numbers),
    without their line ends (a BOM is kept, as the SIGHAN scorer keeps it).
    RAISES CorpusFormatError naming the file and line of undecodable bytes."""
    return [text for _, text in read_text_lines(path)]


def test_input_and_gold(files: CorpusFiles, assets: Path) -> Tuple[List[str], List[bytes], str]:
    """The test input lines, the gold lines (bytes, with line ends) aligned with
    them, and a note saying where the input came from.

    With an official raw input (SIGHAN 2005), the gold file is kept byte for
    byte, so the scorer sees exactly what the Perl script would (BOM, CRLF,
    U+3000). Otherwise the input is the gold words joined, and the gold is
    rewritten with one space between words (dropping ZX's ``_POS`` tags).
    """
    if files.test_raw:
        # readlines splits on b"\n" only, as Perl's <FILE> does.
        with files.path(assets, "test_gold").open("rb") as gold:
            gold_lines = gold.readlines()
        return list_text_lines(files.path(assets, "test_raw")), gold_lines, f"official raw input {files.test_raw}"
    sentences = [s.words for s in read_segmented(files.path(assets, "test_gold"), files.format_of("test_gold"))]
    gold_lines = [(" ".join(words) + "\n").encode("utf-8") for words in sentences]
    return ["".join(words) for words in sentences], gold_lines, f"gold words of {files.test_gold} joined"


def write_evaluation_files(files: CorpusFiles, assets: Path, out_dir: Path) -> Tuple[Path, Path]:
    """Write ``test_input.utf8`` and ``test_gold.utf8`` (UTF-8, "\\n" after each
    input line) into ``out_dir``. RETURNS their paths."""
    inputs, gold_lines, _ = test_input_and_gold(files, assets)
    input_path, gold_path = Path(out_dir) / TEST_INPUT, Path(out_dir) / TEST_GOLD
    input_path.write_bytes("".join(line + "\n" for line in inputs).encode("utf-8"))
    gold_path.write_bytes(b"".join(gold_lines))
    return input_path, gold_path
