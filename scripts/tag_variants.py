"""Which tags of a target-domain word-POS lexicon a word-slot model can use: the lexicon's tags split by whether jieba's dictionary holds the word.

A model with word slots (seed 003's word-POS attention) trained in the open
condition saw POS classes only on words of jieba's dictionary (ICTCLAS tags);
a training word jieba lacks had no tag (class X). A target-domain lexicon in
another tag set (ZX's CTB tags) may differ in two ways: its tags for jieba's
words come from the other tag set, and its words outside jieba carry a tag
where training had none. Each variant written here keeps one of the two
(docs/experiments/accuracy.md, session 17):

- ``jieba_tags.txt``: jieba's tag where jieba has the word, else the lexicon's;
- ``jieba_tags_only.txt``: jieba's tag where jieba has the word, else none;
- ``tags_of_jieba_words.txt``: the lexicon's own tag where jieba has the
  word, else none.

Frequencies are kept. Score them as ``accuracy_table.py --zx-lexicon``.

python scripts/tag_variants.py corpus/zx/train_words_pos.txt corpus/zx/tag_variants
"""
from pathlib import Path
from typing import Callable, Optional

import typer

from spacy_cws.lexicon.lexicon import Lexicon, LexiconEntry
from spacy_cws.lexicon.sources import jieba_lexicon, read_user_dictionary, write_user_dictionary

# How a variant tags a word: f(its entry in the lexicon, its entry in jieba or None).
Retag = Callable[[LexiconEntry, Optional[LexiconEntry]], Optional[str]]
VARIANTS = {
    "jieba_tags": lambda own, jieba: jieba.pos if jieba is not None and jieba.pos else own.pos,
    "jieba_tags_only": lambda own, jieba: jieba.pos if jieba is not None else None,
    "tags_of_jieba_words": lambda own, jieba: own.pos if jieba is not None else None,
}


def retagged(lexicon: Lexicon, jieba: Lexicon, retag: Retag) -> Lexicon:
    """A copy of ``lexicon`` with each word's POS from ``retag``."""
    result = Lexicon()
    for word, entry in lexicon.items():
        result.add(word, entry.frequency, retag(entry, jieba[word] if word in jieba else None))
    return result


def main(
    lexicon_path: Path = typer.Argument(..., help="A word-POS lexicon in the user-dictionary format ('word [freq] [POS]'), e.g. corpus/zx/train_words_pos.txt."),
    output_dir: Path = typer.Argument(..., help="Folder for the variants (one file each)."),
) -> None:
    lexicon = read_user_dictionary(lexicon_path)
    jieba = jieba_lexicon()
    output_dir.mkdir(parents=True, exist_ok=True)
    held = sum(word in jieba for word in lexicon)
    print(f"{lexicon_path}: {len(lexicon)} words, {held} in jieba's dictionary, {len(lexicon) - held} not")
    for name, retag in VARIANTS.items():
        variant = retagged(lexicon, jieba, retag)
        write_user_dictionary(variant, output_dir / f"{name}.txt")
        print(f"{output_dir / name}.txt: {sum(variant[word].pos is not None for word in variant)} tagged words")


if __name__ == "__main__":
    typer.run(main)
