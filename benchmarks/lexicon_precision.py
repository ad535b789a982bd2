"""How good are the words `adapt` mined? The precision of an adapted
pipeline's domain_words.txt against the words of the domain's gold text.

    python benchmarks/lexicon_precision.py ADAPTED_DIR GOLD [--format sighan|wordpos] [--top 30]

Prints the top N mined words (the order of domain_words.txt), the share of
them that are words of GOLD, and the same share over every mined word that
occurs in GOLD's text at all (a word absent from the text cannot be judged).
A measurement script: docs/experiments/adaptation.md has its figures.
"""
import argparse
from pathlib import Path

from spacy_cws.corpora.formats import read_segmented


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("adapted", type=Path, help="A folder written by python -m spacy_cws adapt")
    parser.add_argument("gold", type=Path, help="The domain's segmented gold text")
    parser.add_argument("--format", default="sighan", help="The gold file's format (spacy_cws.corpora.formats)")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    lines = (args.adapted / "domain_words.txt").read_text(encoding="utf-8").splitlines()
    mined = [line.split()[0] for line in lines if line.strip()]
    sentences = list(read_segmented(args.gold, args.format))
    gold_words = {word for sentence in sentences for word in sentence.words}
    text = "\n".join("".join(sentence.words) for sentence in sentences)
    top = mined[: args.top]
    judged = [word for word in mined if word in text]
    print(f"{len(mined):,} mined words; top {len(top)}: {' '.join(top)}")
    print(f"precision of the top {len(top)}: {sum(w in gold_words for w in top) / max(len(top), 1):.2f}")
    print(
        f"precision of the {len(judged):,} mined words found in the gold text: "
        f"{sum(w in gold_words for w in judged) / max(len(judged), 1):.2f}"
    )


if __name__ == "__main__":
    main()
