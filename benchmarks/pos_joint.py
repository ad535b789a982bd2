"""Joint word and tag F1 on raw text: a segmenter (with a criterion) followed by
a tagger, on the held-out PFR days of convert-pos's test.spacy. A word counts
only where both its span and its PKU tag are the gold ones.

    python benchmarks/pos_joint.py SEGMENTER --criterion pku training/pos/model-best \
        corpus/pfr_pos/test.spacy --output metrics/pos_joint.json

SEGMENTER: a pipeline with gd_segmenter (e.g. an `adapt --gold ... --criterion
pku` output); its components from the tagger pipeline (tok2vec, tagger,
attribute_ruler) are added behind it (spaCy's ``source``), in place of its own
where it has them (the shipped pipelines). Each gold
paragraph's text (its words joined) is the input. Also reported: word F1 alone
(spans), and UPOS joint F1 (span and ``pos_``).
"""
import argparse
import json
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from spacy_cws.segmenter.default_criterion import set_default_criterion


def spans(doc, attribute):
    return {(token.idx, token.idx + len(token), getattr(token, attribute)) for token in doc if not token.is_space}


def f1(gold, predicted):
    right = len(gold & predicted)
    precision = right / len(predicted) if predicted else 0.0
    recall = right / len(gold) if gold else 0.0
    return 2 * precision * recall / (precision + recall) if right else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("segmenter")
    parser.add_argument("tagger")
    parser.add_argument("test", type=Path)
    parser.add_argument("--criterion")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    nlp = spacy.load(args.segmenter)
    if args.criterion:
        set_default_criterion(nlp, args.criterion)
    tagger = spacy.load(args.tagger)
    for name in tagger.pipe_names:
        if name in nlp.pipe_names:  # a shipped pipeline's own tagger makes way for TAGGER
            nlp.remove_pipe(name)
        nlp.add_pipe(name, source=tagger)
    gold = list(DocBin().from_disk(args.test).get_docs(nlp.vocab))
    totals = {"words": [set(), set()], "tags": [set(), set()], "upos": [set(), set()]}
    for number, (gold_doc, doc) in enumerate(zip(gold, nlp.pipe(doc.text for doc in gold))):
        for key, attribute in (("words", "is_space"), ("tags", "tag_"), ("upos", "pos_")):
            totals[key][0] |= {(number, *item) for item in spans(gold_doc, attribute)}
            totals[key][1] |= {(number, *item) for item in spans(doc, attribute)}
    report = {
        "segmenter": args.segmenter, "criterion": args.criterion, "tagger": args.tagger, "test": str(args.test),
        "paragraphs": len(gold), "gold_words": len(totals["words"][0]),
        "word_f1": f1(*totals["words"]), "joint_tag_f1": f1(*totals["tags"]), "joint_upos_f1": f1(*totals["upos"]),
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
