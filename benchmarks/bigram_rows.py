"""Word F1 (OOV recall) of a segmenter as it keeps fewer of its bigrams
(Segmenter.keep_frequent_bigrams, `export-onnx --bigram-rows`), as one markdown table.

    python benchmarks/bigram_rows.py training/ctb6-cpu_student-s0/model-float16 \\
        --rows 250000 --rows 200000 --rows 150000 --rows 100000

The first row keeps every bigram; each next one keeps the number given, the
most frequent first, on the same model in memory (keeping fewer never needs
the rows dropped before). Torch runs the network, so the figures are the
model's, not an int8 graph's. The sets and their scoring are
accuracy_table.py's (CTB6 dev to choose by; CTB6, ZX and PKU test to report),
each under its own criterion. Run from the repository root after the
project's convert commands.
"""
import argparse
import json
from pathlib import Path
from typing import List

import spacy

from accuracy_table import PKU_WORDS, SETS, score_pipelines
from spacy_cws.segmenter.pipeline_segmenters import segmenter_component

SCORED = ["CTB6 dev", "CTB6 test", "ZX test", "PKU test (pku)"]


def cell(measures: dict) -> str:
    return f"{100 * measures['f1']:.2f} ({100 * measures['oov_recall']:.1f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", help="a trained pipeline with a gd_segmenter and a bigram table")
    parser.add_argument("--rows", type=int, action="append", default=[], help="bigrams to keep, in falling order")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--output", type=Path, help="also write the measures as JSON here")
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline, config={"components": {"gd_segmenter": {"inference_backend": "torch"}}})
    _, segmenter = segmenter_component(nlp, "gd_segmenter")
    sets = {name: SETS[name] for name in SCORED if PKU_WORDS.is_file() or "PKU" not in name}
    rows: List[dict] = []
    for n_rows in [0] + sorted(args.rows, reverse=True):
        if n_rows:
            segmenter.keep_frequent_bigrams(n_rows)
        kept = len(segmenter.featurizer.bigrams)
        measures = score_pipelines([nlp], [args.pipeline], f"{kept} bigrams,", args.batch_size, sets)
        rows.append({"bigrams": kept, "measures": {name: m for name, m in measures.items() if m}})
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    scored = list(rows[0]["measures"])
    print("| bigrams kept | " + " | ".join(scored) + " |\n|---:|" + "---:|" * len(scored))
    for row in rows:
        print(f"| {row['bigrams']:,} | " + " | ".join(cell(row["measures"][name]) for name in scored) + " |")


if __name__ == "__main__":
    main()
