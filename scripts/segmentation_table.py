"""A Markdown table of official test scores (and speeds) from ``evaluate`` metrics files.

    python scripts/segmentation_table.py ROW=METRICS.json[,METRICS.json...] ... [--speed SPEED.jsonl]

Each ROW gets one column pair per test corpus it was evaluated on: official
F1 and OOV recall (%). ``--speed`` reads JSON lines with "row",
"train_chars_per_second" and/or "decode_chars_per_second" to add speed
columns. Prints the table; nothing is computed but formatting.
"""
from pathlib import Path
from typing import Dict, List, Optional

import srsly
import typer


def main(
    rows: List[str] = typer.Argument(..., help="LABEL=METRICS_JSON[,METRICS_JSON...] in display order."),
    speed: Optional[Path] = typer.Option(None, "--speed", help="JSON lines: row, train/decode chars_per_second."),
):
    table: Dict[str, Dict[str, dict]] = {}
    corpora: List[str] = []
    for row in rows:
        label, _, paths = row.partition("=")
        table[label] = {}
        for path in paths.split(","):
            metrics = srsly.read_json(path)
            corpus = Path(metrics["corpus_dir"]).name
            table[label][corpus] = metrics["official"]
            if corpus not in corpora:
                corpora.append(corpus)
    speeds = {record["row"]: record for record in srsly.read_jsonl(speed)} if speed else {}
    header = ["model"] + [f"{corpus} F1 / OOV R" for corpus in corpora]
    if speeds:
        header += ["train chars/s", "decode chars/s"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, scores in table.items():
        cells = [label]
        for corpus in corpora:
            official = scores.get(corpus)
            cells.append(
                f"{100 * official['f1']:.2f} / {100 * official['oov_recall']:.2f}" if official else "--"
            )
        if speeds:
            record = speeds.get(label, {})
            cells += [f"{record[key]:,.0f}" if record.get(key) else "--" for key in ("train_chars_per_second", "decode_chars_per_second")]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    typer.run(main)
