"""PNG plots of an error analysis, systems side by side (matplotlib, extra ``report``).

Each plot is a grouped bar chart: one group per category (a length bucket,
OOV/IV, a word length, an error kind), one bar per system.
"""
from pathlib import Path
from typing import Dict, List, Sequence

from .error_analysis import ERROR_KINDS, SystemAnalysis

# Imported here, not on first use: without matplotlib, importing this module
# raises ImportError, which the report command turns into how to install it
# before it writes anything.
import matplotlib

matplotlib.use("Agg")  # files only, no display
from matplotlib import pyplot

DPI = 80
FIGURE_SIZE = (7, 3.6)  # inches


def write_plots(analyses: List[SystemAnalysis], folder: Path) -> Dict[str, str]:
    """Write the report's PNGs into ``folder``.

    RETURNS plot title -> file name (relative to ``folder``), in report order.
    """
    names = [analysis.name for analysis in analyses]
    buckets = list(analyses[0].buckets)
    lengths = list(analyses[0].word_length_recall)
    plots = {
        "F1 by sentence length (characters)": (
            "f1_by_sentence_length.png",
            [label + f"\n({analyses[0].buckets[label][0]} lines)" for label in buckets],
            [[_f1(analysis, label) for label in buckets] for analysis in analyses],
            "F1",
        ),
        "Recall of out-of-vocabulary and in-vocabulary words": (
            "oov_iv_recall.png",
            ["OOV", "IV"],
            [[analysis.score.oov_recall or 0.0, analysis.score.iv_recall or 0.0] for analysis in analyses],
            "recall",
        ),
        "Recall by gold word length (characters)": (
            "recall_by_word_length.png",
            [str(length) if length < lengths[-1] else f"{length}+" for length in lengths],
            [[_ratio(*analysis.word_length_recall[length]) for length in lengths] for analysis in analyses],
            "recall",
        ),
        "Errors by kind": (
            "error_kinds.png",
            list(ERROR_KINDS),
            [[analysis.error_counts[kind] for kind in ERROR_KINDS] for analysis in analyses],
            "errors",
        ),
    }
    files = {}
    for title, (file_name, categories, values, unit) in plots.items():
        _grouped_bars(folder / file_name, title, categories, names, values, unit)
        files[title] = file_name
    return files


def _grouped_bars(
    path: Path,
    title: str,
    categories: Sequence[str],
    names: Sequence[str],
    values: Sequence[Sequence[float]],
    unit: str,
) -> None:
    figure, axes = pyplot.subplots(figsize=FIGURE_SIZE, dpi=DPI)
    width = 0.8 / len(names)
    for index, (name, row) in enumerate(zip(names, values)):
        positions = [category + (index - (len(names) - 1) / 2) * width for category in range(len(categories))]
        bars = axes.bar(positions, row, width, label=name)
        axes.bar_label(bars, fmt="%.3f" if unit != "errors" else "%d", fontsize=7)
    axes.set_xticks(range(len(categories)), categories)
    axes.set_ylabel(unit)
    axes.set_title(title)
    if unit != "errors":
        axes.set_ylim(0, 1.08)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    # No timestamp in the file: the same analysis gives the same bytes.
    figure.savefig(path, metadata={"Software": None})
    pyplot.close(figure)


def _f1(analysis: SystemAnalysis, label: str) -> float:
    score = analysis.buckets[label][1]
    return score.f1 if score is not None else 0.0


def _ratio(matched: int, total: int) -> float:
    return matched / total if total else 0.0
