"""Render README's benchmark tables from metrics/benchmark.json, or check that they are current.

    python scripts/render_readme_tables.py metrics/benchmark.json README.md README.zh-CN.md           # write
    python scripts/render_readme_tables.py metrics/benchmark.json README.md README.zh-CN.md --check   # exit 1 if stale

Each README holds two blocks between marker comments, which this script
rewrites and nothing else: ``<!-- benchmark:choose -->`` (the table for choosing
a pipeline: CTB6 F1 / OOV recall, ZX F1, load time, RSS, chars/s through
``nlp.pipe`` and ``segment``) and ``<!-- benchmark:test-sets -->`` (F1 on every test
set). metrics/benchmark.json is written by ``spacy project run benchmark``
(benchmarks/summary.py says what it holds). A file, a marker or a shipped
pipeline that is missing is one line naming it, exit 1.
"""
import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import typer

# Prose lines in README are at most this many columns.
WIDTH = 118
# The README files and their language.
LANGUAGES = {"README.md": "en", "README.zh-CN.md": "zh"}
# Rows in table order: the benchmark's peer label, its name in the table, and
# (for the shipped pipelines) the label of its `segment` run and when to use it.
PIPELINES = [
    ("zh_cws_gd", "zh_cws_gd-segment", {"en": "the most accurate words", "zh": "要最准的词"}),
    ("zh_cws_gd_sm", "zh_cws_gd_sm-segment", {"en": "large volumes", "zh": "大批文本、要快"}),
]
# The peers README shows (metrics/benchmark.json also holds pkuseg's mixed model and spaCy's own zh tokenizers).
PEERS = {"jieba": "jieba", "pkuseg-ctb6": "pkuseg-ctb6", "thulac": "THULAC"}
TEST_SETS = {"ctb6": "CTB6", "zx": "ZX", "sxu": "SXU", "pku": "PKU", "msr": "MSR", "as": "AS", "cityu": "CityU"}
TEXT = {
    "en": {
        "choose": "| | CTB6 F1 / OOV | ZX F1 | load s | RSS MB | chars/s | chars/s `segment` | use it for |",
        "test_sets": "| F1 | " + " | ".join(TEST_SETS.values()) + " |",
        "measured": "One run of `spacy project run benchmark` ({date}, {cpu}, {cpu_count} cores, {threads} thread, "
        "fastest of {rounds} rounds; each segmenter in its own process, no torch): official F1 / OOV recall on CTB6 "
        "test ({characters:,} characters), RSS after loading, chars/s through `nlp.pipe` (peers: their own call) and "
        "`segment` ([metrics/benchmark.json](metrics/benchmark.json), [notes](docs/guides/onnx-runtime.md#measured)).",
        "placeholder": "Not yet one run: figures carried over from earlier runs, one segmenter at a time "
        "([metrics/benchmark.json](metrics/benchmark.json) says which); `spacy project run benchmark` replaces them "
        "([notes](docs/guides/onnx-runtime.md#measured)).",
    },
    "zh": {
        "choose": "| | CTB6 F1 / OOV 召回 | ZX（小说）F1 | 加载秒 | 加载后内存 MB | 字/秒 | 字/秒 `segment` | 何时用 |",
        "test_sets": "| F1 | " + " | ".join(TEST_SETS.values()) + " |",
        "measured": "`spacy project run benchmark` 一次运行（{date}；{cpu}，{cpu_count} 核，{threads} 个线程，"
        "{rounds} 轮取最快），每个分词器各自一个进程，无 torch 的环境：CTB6 测试集（{characters:,} 字）上的官方 "
        "F1 / OOV 召回，加载后的内存（RSS），经 `nlp.pipe`（其他分词器用各自的调用）和 `segment` 的字/秒"
        "（[metrics/benchmark.json](metrics/benchmark.json)，[测法](docs/guides/onnx-runtime.md#measured)）。",
        "placeholder": "尚非一次运行的结果：数字取自以前各自单独的运行"
        "（[metrics/benchmark.json](metrics/benchmark.json) 注明出处），"
        "`spacy project run benchmark` 会换成一次运行的结果（[测法](docs/guides/onnx-runtime.md#measured)）。",
    },
}


def _f1(figures: Optional[dict], name: str = "f1") -> Optional[float]:
    value = (figures or {}).get(name)
    return None if value is None else round(100 * value, 2)


def _cell(value: Optional[float], best: Optional[float]) -> str:
    if value is None:
        return "--"
    return f"**{value:.2f}**" if value == best else f"{value:.2f}"


def _number(value: Optional[float], digits: int = 0) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def _rows(data: dict) -> List[tuple]:
    """(peer label, its name in the table, its `segment` label or None, its use or None) for each row."""
    peers = data["peers"]
    rows = []
    for label, segment, use in PIPELINES:
        if label not in peers:
            raise ValueError(f"metrics/benchmark.json has no peer '{label}': run `spacy project run benchmark`")
        rows.append((label, f"`{label}` {peers[label].get('model_version') or ''}".strip(), segment, use))
    rows += [(label, name, None, None) for label, name in PEERS.items() if label in peers]
    return rows


def _best(data: dict, rows: Sequence[tuple], test_set: str, name: str = "f1") -> Optional[float]:
    values = [_f1(data["peers"][row[0]]["test_sets"].get(test_set), name) for row in rows]
    return max((value for value in values if value is not None), default=None)


def choose_table(data: dict, language: str) -> str:
    """The caption and the table for choosing a pipeline."""
    text, rows, peers = TEXT[language], _rows(data), data["peers"]
    run = data["run"]
    if run.get("placeholder"):
        caption = text["placeholder"]
    else:
        caption = text["measured"].format(characters=data["test_sets"]["ctb6"]["characters"], **run)
    best = {key: _best(data, rows, test_set, name) for key, test_set, name in
            (("ctb6", "ctb6", "f1"), ("oov", "ctb6", "oov_recall"), ("zx", "zx", "f1"))}
    lines = [*_wrapped(caption, language), "", text["choose"], "|---|---|---:|---:|---:|---:|---:|---|"]
    for label, name, segment, use in rows:
        peer = peers[label]
        ctb6, zx = peer["test_sets"].get("ctb6"), peer["test_sets"].get("zx")
        segment_speed = peers.get(segment, {}).get("test_sets", {}).get("ctb6", {}).get("chars_per_second")
        cells = [
            name,
            f"{_cell(_f1(ctb6), best['ctb6'])} / {_cell(_f1(ctb6, 'oov_recall'), best['oov'])}",
            _cell(_f1(zx), best["zx"]),
            _number(peer["load_seconds"], 1),
            _number(peer["rss_loaded_mb"]),
            _number((ctb6 or {}).get("chars_per_second")),
            _number(segment_speed),
            use[language] if use else "",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_sets_table(data: dict, language: str) -> str:
    """F1 of every row on every test set."""
    rows = _rows(data)
    best = {test_set: _best(data, rows, test_set) for test_set in TEST_SETS}
    lines = [TEXT[language]["test_sets"], "|---|" + "---:|" * len(TEST_SETS)]
    for label, name, _, _ in rows:
        figures = data["peers"][label]["test_sets"]
        cells = [name] + [_cell(_f1(figures.get(test_set)), best[test_set]) for test_set in TEST_SETS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _wrapped(text: str, language: str) -> List[str]:
    """English prose in lines of at most WIDTH columns; Chinese, which has no spaces to break at, in one line."""
    if language != "en":
        return [text]
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)


BLOCKS = {"choose": choose_table, "test-sets": test_sets_table}


def render(readme: str, data: dict, language: str, path: Path) -> str:
    """``readme`` with every benchmark block rendered from ``data``.
    RAISES ValueError naming the file and a marker that is missing."""
    for block, table in BLOCKS.items():
        pattern = re.compile(rf"(<!-- benchmark:{block} -->\n)(?:.*?\n)?(<!-- /benchmark:{block} -->)", re.DOTALL)
        if not pattern.search(readme):
            raise ValueError(f"{path}: no '<!-- benchmark:{block} -->' ... '<!-- /benchmark:{block} -->' block")
        readme = pattern.sub(lambda match: match.group(1) + table(data, language) + "\n" + match.group(2), readme)
    return readme


def main(
    benchmark: Path = typer.Argument(..., help="metrics/benchmark.json, written by `spacy project run benchmark`."),
    readmes: List[Path] = typer.Argument(..., help="README.md and/or README.zh-CN.md."),
    check: bool = typer.Option(False, "--check", help="Exit 1 when a README's tables differ from the file."),
):
    try:
        data = json.loads(benchmark.read_text(encoding="utf-8"))
        stale: Dict[Path, str] = {}
        for path in readmes:
            if path.name not in LANGUAGES:
                raise ValueError(f"{path}: not one of {', '.join(LANGUAGES)}")
            text = path.read_text(encoding="utf-8")
            rendered = render(text, data, LANGUAGES[path.name], path)
            if rendered != text:
                stale[path] = rendered
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"{error}" if not isinstance(error, KeyError) else f"{benchmark}: no {error} in it")
    for path, rendered in stale.items():
        if check:
            sys.exit(f"{path} is stale: run python scripts/render_readme_tables.py {benchmark} {path}")
        path.write_text(rendered, encoding="utf-8")
        print(f"wrote {path}")
    if check:
        print("the README tables are current")


if __name__ == "__main__":
    typer.run(main)
