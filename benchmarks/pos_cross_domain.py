"""UPOS accuracy of a PKU-tag tagger on another domain's gold words with CTB tags
(ZX, a novel: ``word_TAG`` tokens, one sentence a line), a cross-domain check.

    python benchmarks/pos_cross_domain.py training/pos/model-best ../shared/data/zx/test.zhuxian.wordpos \
        --output metrics/pos_zx.json [--jieba]

The tagger tags the gold words (its tokenizer is not run); its UPOS
(``token.pos_``, from its PKU tag through spacy_cws/tagging/pku_upos.tsv) is
compared with the gold CTB tag's UPOS through CTB_TO_UPOS below. That table
gives each CTB tag the UPOS that pku_upos.tsv gives the PKU tag of the same
words under PKU's rules (CTB's DT 这/每 is PKU's r: PRON; M 个 is q: NOUN;
LC 上 is f: ADP; AS/DEC/DEG 了/的 are u: PART; VA 高 is a: ADJ), so that a
disagreement is a tagging error or a difference of the two standards that
no mapping removes, not an artefact of two UPOS conventions. With --jieba
and --thulac, jieba.posseg's and THULAC's UPOS on the gold words each segments
the same, scored as pos_accuracy.py scores them (its "tag" figures would
compare PKU tags with CTB ones, and are left out).
"""
import argparse
import json
from collections import Counter
from pathlib import Path

import spacy
from pos_accuracy import jieba_cut, peer_scores, thulac_cut  # benchmarks/ is the script's folder
from spacy.tokens import Doc

# CTB 6 tags (Xia 2000, "The part-of-speech tagging guidelines for the Penn
# Chinese Treebank") -> the UPOS of the matching PKU tag in pku_upos.tsv.
CTB_TO_UPOS = {
    "AD": "ADV", "AS": "PART", "BA": "ADP", "CC": "CCONJ", "CD": "NUM", "CS": "CCONJ", "DEC": "PART",
    "DEG": "PART", "DER": "PART", "DEV": "PART", "DT": "PRON", "ETC": "PART", "FW": "X", "IJ": "INTJ",
    "JJ": "ADJ", "LB": "ADP", "LC": "ADP", "M": "NOUN", "MSP": "PART", "NN": "NOUN", "NR": "PROPN",
    "NT": "NOUN", "OD": "NUM", "ON": "X", "P": "ADP", "PN": "PRON", "PU": "PUNCT", "SB": "ADP", "SP": "PART",
    "VA": "ADJ", "VC": "VERB", "VE": "VERB", "VV": "VERB",
}


def read_word_tags(path: Path):
    """Per non-empty line, its words and CTB tags (``word_TAG``, split at the last ``_``)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        pairs = [token.rsplit("_", 1) for token in line.split()]
        if pairs:
            yield [word for word, _ in pairs], [tag for _, tag in pairs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("gold", type=Path)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--jieba", action="store_true")
    parser.add_argument("--thulac", action="store_true")
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    sentences = list(read_word_tags(args.gold))
    docs = [Doc(nlp.vocab, words=words, spaces=[False] * len(words)) for words, _ in sentences]
    tagged = list(nlp.pipe(docs, batch_size=256))
    right, unmapped, confusions, per_tag = 0, Counter(), Counter(), Counter()
    total = 0
    for doc, (_, tags) in zip(tagged, sentences):
        for token, tag in zip(doc, tags):
            gold = CTB_TO_UPOS.get(tag)
            if gold is None:
                unmapped[tag] += 1
                continue
            total += 1
            if token.pos_ == gold:
                right += 1
            else:
                confusions[(tag, gold, token.tag_, token.pos_)] += 1
                per_tag[tag] += 1
    result = {
        "pipeline": args.pipeline,
        "gold": str(args.gold),
        "words": total,
        "upos_accuracy": round(100 * right / total, 2),
        "unmapped_tags": dict(unmapped),
        "errors_by_ctb_tag": dict(per_tag.most_common(10)),
        "top_confusions": [
            {"ctb": ctb, "gold_upos": gold, "pku": pku, "upos": upos, "count": count}
            for (ctb, gold, pku, upos), count in confusions.most_common(15)
        ],
    }
    peers = {"jieba": jieba_cut if args.jieba else None, "thulac": thulac_cut if args.thulac else None}
    gold = [
        Doc(nlp.vocab, words=words, spaces=[False] * len(words), tags=tags, pos=[CTB_TO_UPOS.get(t, "X") for t in tags])
        for words, tags in sentences
    ]
    for name, cut in peers.items():
        if cut is not None:
            scores = peer_scores(gold, tagged, cut())
            result[name] = {key: value for key, value in scores.items() if "tag_acc" not in key}
    text = json.dumps(result, ensure_ascii=False, indent=2)
    print(text)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
