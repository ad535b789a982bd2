"""The HTML page of an error analysis: official measures, plots, error tables.

Plain HTML built with the standard library (``html.escape``): the page is a
few tables and images, which needs no template engine as a dependency.
"""
from html import escape
from typing import Dict, List

from .error_analysis import ERROR_KINDS, SystemAnalysis

# The official measures, as ``score`` prints them: (key, label, is a rate).
MEASURES = (
    ("precision", "Precision", True),
    ("recall", "Recall", True),
    ("f1", "F1", True),
    ("oov_rate", "OOV rate", True),
    ("oov_recall", "OOV recall", True),
    ("iv_recall", "IV recall", True),
    ("true_words", "Gold words", False),
    ("test_words", "System words", False),
)
STYLE = (
    "body{font-family:sans-serif;max-width:75em;margin:auto}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
    "td.n{text-align:right}.err{background:#fdd}.sys{color:#a00}"
    ".side{display:flex;gap:2em;align-items:flex-start}.side>div{flex:1}"
)


def render_report(analyses: List[SystemAnalysis], plots: Dict[str, str], gold_name: str) -> str:
    """The report page for ``analyses`` (systems on one gold file).

    plots: plot title -> PNG file name, relative to the page.
    """
    names = [analysis.name for analysis in analyses]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh"><head><meta charset="utf-8">',
        f"<title>Segmentation report: {escape(', '.join(names))}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Segmentation report</h1><p>Gold: <code>{escape(gold_name)}</code>. "
        f"Systems: {escape(', '.join(names))}.</p>",
        "<h2>Official SIGHAN measures</h2>",
        _measures_table(analyses),
        "<h2>Errors by kind</h2>",
        "<p>An error is a run of unmatched words between two words the official scorer matches: "
        "<b>split</b>, one gold word cut into several; <b>merge</b>, several gold words joined; "
        "<b>other</b>, crossing boundaries.</p>",
        _error_counts_table(analyses),
    ]
    for title, file_name in plots.items():
        parts.append(f'<h2>{escape(title)}</h2><img src="{escape(file_name)}" alt="{escape(title)}">')
    parts.append("<h2>Most frequent errors</h2><div class=side>")
    for analysis in analyses:
        parts.append(f"<div><h3>{escape(analysis.name)}</h3>{_patterns_table(analysis)}</div>")
    parts.append("</div></body></html>\n")
    return "\n".join(parts)


def _measures_table(analyses: List[SystemAnalysis]) -> str:
    rows = ["<table><tr><th>Measure</th>" + "".join(f"<th>{escape(a.name)}</th>" for a in analyses) + "</tr>"]
    for key, label, is_rate in MEASURES:
        cells = []
        for analysis in analyses:
            value = getattr(analysis.score, key)
            cells.append("--" if value is None else f"{value:.4f}" if is_rate else f"{value:,}")
        rows.append(f"<tr><th>{label}</th>" + "".join(f"<td class=n>{cell}</td>" for cell in cells) + "</tr>")
    return "\n".join(rows) + "</table>"


def _error_counts_table(analyses: List[SystemAnalysis]) -> str:
    rows = ["<table><tr><th>Kind</th>" + "".join(f"<th>{escape(a.name)}</th>" for a in analyses) + "</tr>"]
    for kind in ERROR_KINDS:
        cells = "".join(f"<td class=n>{analysis.error_counts[kind]:,}</td>" for analysis in analyses)
        rows.append(f"<tr><th>{kind}</th>{cells}</tr>")
    return "\n".join(rows) + "</table>"


def _patterns_table(analysis: SystemAnalysis) -> str:
    rows = ["<table><tr><th>#</th><th>Kind</th><th>Gold → system</th><th>Count</th><th>In context (line)</th></tr>"]
    for rank, pattern in enumerate(analysis.patterns, start=1):
        examples = "<br>".join(
            f"{escape(example.left)} <span class=err>{escape(pattern.gold)}</span> "
            f"{escape(example.right)} ({example.line_no})"
            for example in pattern.examples
        )
        rows.append(
            f"<tr><td class=n>{rank}</td><td>{pattern.kind}</td>"
            f"<td>{escape(pattern.gold)} → <span class=sys>{escape(pattern.system)}</span></td>"
            f"<td class=n>{pattern.count}</td><td>{examples}</td></tr>"
        )
    return "\n".join(rows) + "</table>"
