"""Part-of-speech tags on the gold words of a test DocBin (convert-pos's
test.spacy): a tagger pipeline's PKU tag and UPOS accuracy and its speed at
one thread, and optionally jieba.posseg's and THULAC's tags on the same text.

    python benchmarks/pos_accuracy.py training/pos/model-best corpus/pfr_pos/test.spacy \
        --output metrics/pos.json [--jieba] [--thulac]

--fold-width tags the gold words of full-width Latin letters or digits as
ASCII (ＳＯＤ -> SOD, １９９８年 -> 1998年, punctuation as it is: PFR writes
them full-width, most text half-width) and also reports the accuracy on the
words that changed.

Speed: words/s of ``nlp.pipe`` over Docs of the gold words (the tokenizer is
not run), one thread (the BLAS thread variables are set to 1 before numpy
loads), the best of --repeats runs.

jieba and THULAC segment the text themselves: their tags are scored on the
gold words they segment the same (same characters, same place), the share of
gold words each finds is reported with them, and the pipeline is scored on
that same subset. Their tags map to PKU ones (jieba's finer ones to their PKU
tag: uj -> u, nrt -> nr, ...; THULAC's np -> nr, ni -> nt, g -> Ng, x -> nx);
the tags with no PKU equivalent (mq, a numeral with its classifier) count as
wrong.
"""
import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import spacy  # noqa: E402
from spacy.tokens import Doc, DocBin  # noqa: E402

from spacy_cws.features.character_view import half_width_alphanumerics  # noqa: E402
from spacy_cws.tagging.pku_upos import pku_upos  # noqa: E402

# jieba's tags that are not PKU tags -> the PKU tag (jieba's dict.txt uses
# lower case for the morpheme tags and splits u, nr, r, v, d).
JIEBA_TO_PKU = {
    "ag": "Ag", "bg": "Bg", "dg": "Dg", "mg": "Mg", "ng": "Ng", "rg": "Rg", "tg": "Tg", "vg": "Vg", "yg": "Yg",
    "uj": "u", "ul": "u", "uv": "u", "ud": "u", "uz": "u", "ug": "u",
    "nrt": "nr", "nrfg": "nr", "rr": "r", "rz": "r", "vi": "v", "vq": "v", "df": "d", "zg": "z",
    "eng": "nx", "x": "w",
}
# THULAC's tags (THULAC's README) that are not PKU tags -> the PKU tag.
THULAC_TO_PKU = {"np": "nr", "ni": "nt", "g": "Ng", "x": "nx"}


def spans(words):
    start, result = 0, []
    for word in words:
        result.append((start, start + len(word)))
        start += len(word)
    return result


def accuracy(pairs):
    pairs = list(pairs)
    return sum(gold == guess for gold, guess in pairs) / len(pairs) if pairs else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("test", type=Path)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--jieba", action="store_true")
    parser.add_argument("--thulac", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--fold-width", action="store_true", help="tag the words with full-width ASCII as ASCII")
    args = parser.parse_args()
    word_form = half_width_alphanumerics if args.fold_width else str
    nlp = spacy.load(args.pipeline)
    gold = list(DocBin().from_disk(args.test).get_docs(nlp.vocab))
    words = sum(len(doc) for doc in gold)

    def inputs():
        return [Doc(nlp.vocab, words=[word_form(t.text) for t in doc], spaces=[False] * len(doc)) for doc in gold]

    best = float("inf")
    for _ in range(args.repeats):
        docs = inputs()
        start = time.perf_counter()
        tagged = list(nlp.pipe(docs))
        best = min(best, time.perf_counter() - start)
    pairs = [(g, p) for gold_doc, doc in zip(gold, tagged) for g, p in zip(gold_doc, doc)]
    report = {
        "pipeline": str(args.pipeline), "test": str(args.test), "paragraphs": len(gold), "words": words,
        "tag_acc": accuracy((g.tag_, p.tag_) for g, p in pairs),
        "pos_acc": accuracy((g.pos_, p.pos_) for g, p in pairs),
        "words_per_second_1_thread": round(words / best),
    }
    if args.fold_width:
        changed = [(g, p) for g, p in pairs if g.text != p.text]
        report["folded_words"] = len(changed)
        report["tag_acc_folded_words"] = accuracy((g.tag_, p.tag_) for g, p in changed)
    if args.jieba:
        report["jieba"] = peer_scores(gold, tagged, jieba_cut())
    if args.thulac:
        report["thulac"] = peer_scores(gold, tagged, thulac_cut())
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def jieba_cut():
    """jieba.posseg's words and tags of a text, its tags mapped to PKU's."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(60)
    return lambda text: [(pair.word, JIEBA_TO_PKU.get(pair.flag, pair.flag)) for pair in jieba.posseg.cut(text)]


def thulac_cut():
    """THULAC's words and tags of a text, its tags mapped to PKU's."""
    import thulac

    model = thulac.thulac()
    return lambda text: [(word, THULAC_TO_PKU.get(tag, tag)) for word, tag in model.cut(text)]


def peer_scores(gold, tagged, cut):
    """A peer's tags (``cut``: text -> [(word, PKU tag)]) and the pipeline's
    (``tagged``) on the gold words the peer segments the same."""
    upos = pku_upos()
    found = total = 0
    peer_pairs, our_pairs, unmapped = [], [], 0
    for gold_doc, doc in zip(gold, tagged):
        pairs = cut(gold_doc.text)
        theirs = dict(zip(spans([word for word, _ in pairs]), [tag for _, tag in pairs]))
        for (span, g, p) in zip(spans([t.text for t in gold_doc]), gold_doc, doc):
            total += 1
            if span not in theirs:
                continue
            found += 1
            tag = theirs[span]
            unmapped += tag not in upos
            peer_pairs.append((g.tag_, tag, g.pos_, upos.get(tag)))
            our_pairs.append((g.tag_, p.tag_, g.pos_, p.pos_))
    return {
        "gold_words": total,
        "same_words": found,
        "share_of_gold_words": found / total,
        "unmapped_tags": unmapped,
        "peer_tag_acc": accuracy((a, b) for a, b, _, _ in peer_pairs),
        "peer_pos_acc": accuracy((c, d) for _, _, c, d in peer_pairs),
        "pipeline_tag_acc_same_words": accuracy((a, b) for a, b, _, _ in our_pairs),
        "pipeline_pos_acc_same_words": accuracy((c, d) for _, _, c, d in our_pairs),
    }


if __name__ == "__main__":
    main()
