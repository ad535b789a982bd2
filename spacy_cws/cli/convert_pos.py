"""``python -m spacy_cws convert-pos``: PFR with PKU tags -> train/dev/test DocBins by date."""
import re
from pathlib import Path
from typing import Dict, List

import spacy
import typer
from spacy.tokens import DocBin
from wasabi import msg

from ..corpora.catalog import PFR_HELD_OUT_DAYS, PFR_POS_DEV_DAYS
from ..corpora.pfr_pos import SPLITS, read_pfr_tagged, split_of, tagged_doc
from . import app
from .errors import fail, require_file, require_output_folder, writing_folder

DAY = re.compile(r"\d{8}")


@app.command("convert-pos")
def convert_pos_cli(
    input_path: Path = typer.Argument(..., help="People's Daily 1998 with PKU tags (PFR's 199801.txt: GBK, word/TAG)."),
    output_dir: Path = typer.Argument(..., help="Folder for train.spacy, dev.spacy and test.spacy."),
    dev_days: str = typer.Option(",".join(PFR_POS_DEV_DAYS), "--dev-days", help="Comma-separated YYYYMMDD: dev.spacy."),
    test_days: str = typer.Option(
        ",".join(PFR_HELD_OUT_DAYS),
        "--test-days",
        help="Comma-separated YYYYMMDD: test.spacy (default: the held-out days).",
    ),
):
    """Convert PFR's gold words and PKU tags to DocBins for spaCy's tagger.

    Convert PFR's gold words and PKU tags to DocBins for spaCy's tagger: one
    Doc per paragraph, its text the words joined without spaces, token.tag_
    the PKU tag and token.pos_ its UPOS; a compound name ([...]nt) keeps its
    inner words and their tags. The paragraph's date picks the file: the
    test days, the dev days, every other day train."""
    require_file(input_path, "Input file")
    require_output_folder(output_dir)
    dev, test = _days(dev_days, "--dev-days"), _days(test_days, "--test-days")
    if set(dev) & set(test):
        fail(f"Days both in --dev-days and --test-days: {', '.join(sorted(set(dev) & set(test)))}")
    vocab = spacy.blank("zh").vocab
    docs: Dict[str, DocBin] = {split: DocBin() for split in SPLITS}
    words = dict.fromkeys(SPLITS, 0)
    days = set()
    try:
        for paragraph in read_pfr_tagged(input_path):
            split = split_of(paragraph.day, dev, test)
            docs[split].add(tagged_doc(vocab, paragraph))
            words[split] += len(paragraph.words)
            days.add(paragraph.day)
    except ValueError as err:  # CorpusFormatError names the file and line
        fail(str(err))
    missing = sorted(set(dev + test) - days)
    if missing:
        fail(f"No paragraph of {input_path} is dated {', '.join(missing)} (check --dev-days and --test-days).")
    if not len(docs["train"]):
        fail(f"Every paragraph of {input_path} is a dev or test day: none is left for train.spacy.")
    with writing_folder(output_dir):
        for split, doc_bin in docs.items():
            doc_bin.to_disk(output_dir / f"{split}.spacy")
    rows = [(str(output_dir / f"{split}.spacy"), f"{len(docs[split]):,}", f"{words[split]:,}") for split in SPLITS]
    msg.good(f"Converted {input_path}")
    msg.table(rows, header=("file", "paragraphs", "words"), aligns=("l", "r", "r"))


def _days(option: str, name: str) -> List[str]:
    days = [day.strip() for day in option.split(",") if day.strip()]
    bad = [day for day in days if not DAY.fullmatch(day)]
    if bad or not days:
        fail(f"{name} takes comma-separated dates YYYYMMDD, got {option!r}.")
    return days
