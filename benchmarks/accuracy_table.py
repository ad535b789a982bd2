"""Word F1 (OOV recall) of segmenters on the accuracy issue's sets, as one markdown table.

    python benchmarks/accuracy_table.py training/teacher-s0/model-best training/teacher-s0/model-best,zh_cws_gd \
        zh_cws_gd --output metrics/accuracy_table.json

Each MODEL is a pipeline (an installed name or a path), or pipelines joined by
commas: their ensemble (gap probabilities averaged, as `ensemble-segment`).
The sets, each scored with the official SIGHAN measures (spacy_cws.scoring.sighan):

- CTB6 dev (corpus/ctb6/dev.spacy) and test, ZX test and SXU test: criterion
  ctb6 where the pipeline has criteria; OOV against the corpus's training words;
- PKU dev (corpus/pku_pfr/dev.spacy, a sample of the SIGHAN 2005 PKU training
  set) and SIGHAN 2005 PKU test (corpus/pku_pfr/test_*): criterion pku, OOV
  against PKU's training words (assets/sighan2005/pku/training_words.utf8).
  A pipeline without a pku criterion gets no figure there.

A dev set's input is each gold Doc's text, its gold the Doc's words. Run from
the repository root after the project's convert commands (ctb6, sxu, zx,
pku_pfr) and fetch of the SIGHAN 2005 PKU word list.
"""
import argparse
import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import DocBin

from spacy_cws.distillation.ensemble import SegmenterEnsemble, pipeline_names
from spacy_cws.scoring.evaluate import system_line
from spacy_cws.scoring.sighan import read_byte_lines, read_dictionary, score_lines
from spacy_cws.segmenter.pipeline_segmenters import segmenters_of

PKU_WORDS = Path("assets/sighan2005/pku/training_words.utf8")
# name: (input, gold: a DocBin or test_input/test_gold files, training words, criterion)
SETS = {
    "CTB6 dev": ("corpus/ctb6/dev.spacy", "corpus/ctb6/train_words.txt", "ctb6"),
    "CTB6 test": ("corpus/ctb6", "corpus/ctb6/train_words.txt", "ctb6"),
    "ZX test": ("corpus/zx", "corpus/ctb6/train_words.txt", "ctb6"),
    "SXU test": ("corpus/sxu", "corpus/ctb6/train_words.txt", "ctb6"),
    "PKU dev (pku)": ("corpus/pku_pfr/dev.spacy", str(PKU_WORDS), "pku"),
    "PKU test (pku)": ("corpus/pku_pfr", str(PKU_WORDS), "pku"),
}


def texts_and_gold(source: Path, vocab) -> Tuple[List[str], List[bytes]]:
    """The input texts and the gold lines (UTF-8, words separated by spaces) of a set."""
    if source.suffix == ".spacy":
        docs = list(DocBin().from_disk(source).get_docs(vocab))
        return [doc.text for doc in docs], [(system_line(doc) + "\n").encode("utf-8") for doc in docs]
    texts = (source / "test_input.utf8").read_text(encoding="utf-8").splitlines()
    return texts, read_byte_lines(source / "test_gold.utf8")


def score_model(model: str, batch_size: int) -> Dict[str, Optional[dict]]:
    """Per set the official measures (fractions) of ``model``, or None where
    it lacks the set's criterion (a model without criteria: every ctb6 set)."""
    names = pipeline_names(model)
    return score_pipelines([spacy.load(name) for name in names], names, model, batch_size)


def score_pipelines(
    pipelines: List[Language], names: List[str], label: str, batch_size: int, sets: Dict[str, tuple] = SETS
) -> Dict[str, Optional[dict]]:
    """Per set of ``sets`` the official measures of the loaded ``pipelines``
    (one, or an ensemble), or None where they lack the set's criterion."""
    known = [{c for segmenter in segmenters_of(nlp) for c in segmenter.criteria} for nlp in pipelines]
    with_criteria = [criteria for criteria in known if criteria]
    # Criteria every multi-criteria member knows; members without criteria segment as trained (CTB6).
    scored = set.intersection(*with_criteria) if with_criteria else {"ctb6"}
    results = {}
    for name, (source, words, criterion) in sets.items():
        if criterion not in scored:
            results[name] = None
            continue
        ensemble = SegmenterEnsemble(pipelines, names, criterion if with_criteria else None)
        texts, gold = texts_and_gold(Path(source), ensemble.vocab)
        system = [(system_line(doc) + "\n").encode("utf-8") for doc in ensemble.pipe(texts, batch_size=batch_size)]
        results[name] = score_lines(gold, system, read_dictionary(words)).to_dict()
        print(f"{label} {name}: F1 {100 * results[name]['f1']:.2f}", flush=True)
    return results


def _cell(measures: Optional[dict]) -> str:
    """F1 (OOV recall) in %; F1 alone for a set without OOV words (PKU dev), empty for no figure."""
    if not measures:
        return ""
    oov = measures["oov_recall"]
    return f"{100 * measures['f1']:.2f}" + ("" if oov is None else f" ({100 * oov:.1f})")


def table(scores: Dict[str, Dict[str, Optional[dict]]]) -> str:
    lines = ["| model | " + " | ".join(SETS) + " |", "|---|" + "---:|" * len(SETS)]
    for model, results in scores.items():
        cells = [_cell(r) for r in results.values()]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", help="pipelines, or pipelines joined by commas (an ensemble)")
    parser.add_argument("--output", type=Path, help="also write the measures as JSON here")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    scores = {model: score_model(model, args.batch_size) for model in args.models}
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(scores, indent=2), encoding="utf-8")
    print(table(scores))


if __name__ == "__main__":
    main()
