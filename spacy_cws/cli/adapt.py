"""``python -m spacy_cws adapt PIPELINE RAW_TEXT... --output DIR``: adapt a pipeline to raw domain text."""
import sys
from dataclasses import asdict
from pathlib import Path
from typing import List, Optional

import srsly
import typer
from wasabi import msg

from ..adaptation.few_shot import FewShotSettings
from ..backends.export_options import ONNX_MATMULS, ONNX_TABLES
from ..segmenter.moved_settings import upgrade_config
from . import app
from .derived_meta import derived_meta
from .errors import fail
from .pipeline_output import check_pipeline_output, replacing_folder, source_folder

DOMAIN_WORDS = "domain_words.txt"
REPORT = "adaptation.json"


@app.command("adapt")
def adapt_cli(
    pipeline: str = typer.Argument(..., help="A pipeline with gd_segmenter: an installed name or a path."),
    raw_text: Optional[List[Path]] = typer.Argument(
        None, help="UTF-8 text files of the domain, one text a line (with --gold, optional)."
    ),
    output: Optional[Path] = typer.Option(
        None, "--output", "-o", help="Folder for the adapted pipeline (spacy.load(DIR)); with --suggest, a file."
    ),
    lexicon_only: bool = typer.Option(
        False, "--lexicon-only", help="Mine the domain lexicon only, no training (the default)."
    ),
    self_train: bool = typer.Option(
        False, "--self-train", help="After mining, fine-tune the segmenter on its own confident gaps (needs torch)."
    ),
    no_lexicon: bool = typer.Option(
        False, "--no-lexicon",
        help="Add none of the mined words (they are still written): self-train without them, or with --gold "
        "learn the standard alone, so the source criterion gets no new words.",
    ),
    steps: Optional[int] = typer.Option(
        None, "--steps", min=0, help="Self-training optimizer steps (about 2,000 characters each; default 100)."
    ),
    threshold: Optional[float] = typer.Option(
        None, "--threshold", min=0.5, max=1.0,
        help="Gap probability that makes a self-training label (and 1 - it: no boundary; default 0.95).",
    ),
    learn_rate: Optional[float] = typer.Option(
        None, "--learn-rate", min=0.0, help="Self-training learning rate (Adam; default 1e-4)."
    ),
    l2sp: Optional[float] = typer.Option(
        None, "--l2sp", min=0.0, help="Weight of the L2-SP penalty toward the source weights (default 0)."
    ),
    mask_only: bool = typer.Option(
        False,
        "--mask-only",
        help="Mask the gaps below the threshold out of the loss instead of distilling the source's probabilities.",
    ),
    bonus: float = typer.Option(
        1.0,
        "--bonus",
        min=0.0,
        help="Decoding bonus of the mined words (nats), besides their lexicon features; 0: none.",
    ),
    min_count: int = typer.Option(3, "--min-count", min=1, help="Least occurrences of a mined word in the raw text."),
    min_av: int = typer.Option(5, "--min-av", min=1, help="Least accessor variety of a mined word (Feng et al. 2004)."),
    tables: Optional[str] = typer.Option(
        None, "--tables",
        help=f"How the self-trained graph stores the n-gram tables: {' or '.join(ONNX_TABLES)} "
        "(default: as the source's).",
    ),
    matmuls: Optional[str] = typer.Option(
        None, "--matmuls",
        help=f"How the self-trained graph computes its products by weights: {' or '.join(ONNX_MATMULS)} "
        "(default: as the source's).",
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace an existing output pipeline folder whole (never the source pipeline)."
    ),
    gold: Optional[Path] = typer.Option(
        None, "--gold", help="Gold sentences of your standard (UTF-8, words separated by spaces, one a line, "
        "at least 50): learned as the new default criterion instead of self-training. Needs torch."
    ),
    criterion: str = typer.Option("user", "--criterion", help="With --gold: the name of the new criterion."),
    gold_steps: Optional[int] = typer.Option(
        None, "--gold-steps", min=1, help=f"With --gold: optimizer steps (default: {FewShotSettings.min_steps:,}, or "
        f"{FewShotSettings.passes:g} passes over a gold file of more than "
        f"{FewShotSettings.min_steps * FewShotSettings.batch_chars / FewShotSettings.passes:,.0f} characters)."
    ),
    gold_raw_steps: Optional[int] = typer.Option(
        None, "--gold-raw-steps", min=0, help="With --gold and RAW_TEXT: the steps that follow on both, each a gold "
        "batch and a raw batch labelled at the gaps the new criterion is sure of "
        f"(default {FewShotSettings.raw_steps}; 0: gold sentences only)."
    ),
    gold_heads_only: bool = typer.Option(
        False, "--gold-heads-only", help="With --gold: the new criterion learns gap heads and its embedding only; "
        "the encoders' top layer stays shared (by default it gets a copy of its own that learns too)."
    ),
    suggest: Optional[int] = typer.Option(
        None, "--suggest", min=1, help="Write N raw lines to correct, where the pipeline doubts gaps that recur in the "
        "text, segmented, for you to correct and pass as --gold (to --output FILE, or stdout); nothing is adapted."
    ),
):
    """Adapt a pipeline to your domain from raw text, or to your standard from gold sentences.

    Adapt PIPELINE to the domain of the RAW_TEXT files (UTF-8, one text a
    line; at least 1,000 characters, ideally 100,000 or more): words of the
    domain are mined from the text (accessor variety, PMI and the model's own
    confident words) and join the segmenter's lexicon in prefer mode, with a
    decoding bonus. With --self-train (needs torch) the segmenter is then
    fine-tuned on the gaps of the text it is sure of (the others keep the
    source's probabilities as soft targets, or with --mask-only leave the
    loss); it did not pay on average over four domains, so it is not the
    default. Writes the adapted pipeline to DIR (spacy.load(DIR),
    spacy package), the mined words to DIR/domain_words.txt ('word count' a
    line, the user-dictionary format: read, edit, reuse with --user-dict)
    and what was done to DIR/adaptation.json. A source that holds an ONNX
    graph gets a graph of the self-trained weights, exported as the source's
    was (or as --tables and --matmuls say; int8-static products are
    calibrated on the raw text). Its meta.json names it NAME_adapted,
    records the source and the raw text, and carries none of the source's
    scores. Needs no gold data; the source pipeline is never written to.
    See docs/guides/domain-adaptation.md.

    With --gold FILE (a few hundred sentences segmented by your standard,
    words separated by spaces) the segmenter learns that standard instead of
    self-training: a new criterion (--criterion, default 'user') with gap
    heads and a top encoder layer of its own (--gold-heads-only: heads
    only), the default of the output, and with RAW_TEXT goes on learning
    from the gold sentences and the raw text's confident gaps together
    (--gold-raw-steps); the source's criterion
    (e.g. ctb6) still segments as before, chosen by doc._.cws_criterion or
    the criterion setting. RAW_TEXT is then optional (the lexicon is mined
    from the gold sentences' text). --suggest N writes N raw lines where the
    pipeline doubts gaps that recur in the text, segmented, to correct and
    pass as --gold."""
    import spacy

    from ..adaptation.adapt import adapt_pipeline
    from ..adaptation.lexicon_mining import MiningSettings, write_lexicon
    from ..segmenter.pipeline_segmenters import segmenter_component
    from .adapt_input import read_adaptation_input
    from .adapt_self_training import self_training_options
    from .adapt_suggestions import write_suggestions

    training = self_training_options(
        self_train, lexicon_only, no_lexicon, gold, suggest,
        steps=steps, threshold=threshold, learn_rate=learn_rate, l2sp=l2sp, mask_only=mask_only,
    )
    gold_sentences, texts = read_adaptation_input(raw_text, gold, lexicon_only, suggest)
    if output is None and suggest is None:
        fail("Missing option '--output': the folder for the adapted pipeline.")
    try:
        nlp = spacy.load(pipeline)
    except (OSError, ValueError, KeyError) as err:
        fail(f"Cannot load the pipeline {pipeline}: {err}")
    try:
        name, _ = segmenter_component(nlp)
    except ValueError as err:
        fail(str(err))
    progress = sys.stderr.isatty()
    if suggest is not None:
        write_suggestions(nlp, texts, suggest, output, progress)
        return
    check_pipeline_output(output, force, source_folder(nlp))
    mining = MiningSettings(min_count=min_count, min_accessor_variety=min_av)
    few_shot = FewShotSettings(criterion=criterion, steps=gold_steps, top_layer=not gold_heads_only)
    if gold_raw_steps is not None:
        few_shot.raw_steps = gold_raw_steps
    try:
        result = adapt_pipeline(
            nlp, texts, mining, training, lexicon=not no_lexicon, bonus=bonus or None, progress=progress,
            tables=tables, matmuls=matmuls, gold=gold_sentences, few_shot=few_shot,
        )
    except (ValueError, ImportError) as err:
        fail(str(err))
    upgrade_config(nlp.get_pipe_config(name), nlp.get_pipe(name).cfg["unbroken_patterns"])
    trained = "" if result.self_training is None else f", {training.steps} self-training steps"
    if result.few_shot is not None:
        trained = (
            f", the standard of {len(gold_sentences):,} gold sentences as the default criterion '{criterion}' "
            f"(the source's: '{result.few_shot['source_criterion']}')"
        )
    raw_names = [path.name for path in raw_text or []]
    domain = {"raw_text": raw_names, "characters": result.n_characters}
    if gold is not None:
        domain["gold"] = {"file": gold.name, "sentences": len(gold_sentences)}
    nlp.meta = derived_meta(
        nlp.meta, "adapt", "adapted",
        f"adapted to {result.n_characters:,} characters of domain text ({', '.join(raw_names or [gold.name])}), "
        f"{len(result.words):,} mined words ({DOMAIN_WORDS}){trained}",
        domain,
    )
    with replacing_folder(output):
        nlp.to_disk(output)
        write_lexicon(result.words, output / DOMAIN_WORDS)
        srsly.write_json(
            output / REPORT,
            {
                "source": pipeline,
                "component": name,
                "raw_text": [str(path) for path in raw_text or []],
                "gold": None if gold is None else {"path": str(gold), "sentences": len(gold_sentences)},
                "few_shot": result.few_shot,
                "characters": result.n_characters,
                "mined_words": len(result.words),
                "lexicon_added": not no_lexicon,
                "self_training": result.self_training,
                "settings": result.settings,
                "top_words": [asdict(entry) for entry in result.words[:30]],
            },
        )
    msg.good(f"Saved {output}: {len(result.words):,} domain words ({output / DOMAIN_WORDS}){trained}")
