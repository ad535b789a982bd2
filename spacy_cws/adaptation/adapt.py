"""Adapting a loaded pipeline's segmenter to raw domain text, in place.

1. The segmenter segments the raw text, with gap probabilities.
2. Domain words are mined from the raw text and the model's confident words
   (lexicon_mining.py) and become the segmenter's user dictionary in
   "prefer" mode: they join its last lexicon channel, so the model sees
   them as lexicon features, and (``bonus``) each match also gets a soft
   bonus in decoding (dictionary_bonus.py); the model still decides.
3. Unless ``self_training`` is None, the segmenter segments the text again,
   now with the lexicon, and is fine-tuned on its own confident gaps
   (self_training.py). Or, given ``gold`` sentences, it learns their
   standard as a new criterion with gap heads and a top encoder layer of
   its own, the shared weights frozen, so the source's criterion segments
   as before (few_shot.py). A pipeline that held an ONNX graph gets one of
   the new weights (export_onnx), exported as its source's was unless told
   otherwise, so it ships and runs as its source did. With raw text beside
   the gold sentences, the new criterion then goes on learning from both:
   the raw lines' confident gaps by the new criterion become partial labels.
Nothing but the pipeline and the raw text (and, for a new standard, a few
hundred gold sentences) is needed: no training corpus.
"""
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.util import minibatch
from tqdm import tqdm

from ..backends.export_options import DEFAULT_MATMULS, DEFAULT_TABLES, check_export_options
from ..segmenter.component import Segmenter
from ..segmenter.new_criterion import check_new_criterion_name
from ..segmenter.pipeline_segmenters import segmenter_component
from .few_shot import FewShotSettings, learn_from_raw_text, learn_gold_standard
from .lexicon_mining import MinedWord, MiningSettings, mine_lexicon, model_word_statistics
from .self_training import SelfTrainingSettings, self_train

# Texts segmented at a time while labelling the raw text (progress steps).
LABEL_BATCH = 256
# Raw texts that calibrate a graph with static int8 products (matmuls =
# "int8-static") when the adapted weights are exported.
CALIBRATION_TEXTS = 2000


@dataclass
class Adaptation:
    """What ``adapt_pipeline`` did. words: the mined words, most frequent
    first; n_characters: of the raw text; self_training: its statistics
    (self_train), or None; few_shot: the statistics of learning the gold
    sentences' standard (learn_gold_standard), or None; settings: the
    settings used, as dicts."""

    words: List[MinedWord]
    n_characters: int
    self_training: Optional[Dict[str, float]] = None
    few_shot: Optional[Dict[str, float]] = None
    settings: Dict[str, dict] = field(default_factory=dict)


def label_texts(
    segmenter: Segmenter, texts: Sequence[str], progress: bool = False, desc: str = "segment"
) -> Tuple[list, list]:
    """Per text its words and gap probabilities (Segmenter.segment_with_probs), in batches with a progress bar."""
    words: List[numpy.ndarray] = []
    probs: List[numpy.ndarray] = []
    with tqdm(total=len(texts), desc=desc, unit=" texts", disable=not progress, leave=False) as bar:
        for batch in minibatch(texts, size=LABEL_BATCH):
            batch_words, batch_probs = segmenter.segment_with_probs(batch)
            words.extend(batch_words)
            probs.extend(batch_probs)
            bar.update(len(batch))
    return words, probs


def adapt_pipeline(
    nlp: Language,
    texts: Sequence[str],
    mining: Optional[MiningSettings] = None,
    self_training: Optional[SelfTrainingSettings] = None,
    lexicon: bool = True,
    bonus: Optional[float] = 1.0,
    progress: bool = False,
    tables: Optional[str] = None,
    matmuls: Optional[str] = None,
    gold: Optional[Sequence[Sequence[str]]] = None,
    few_shot: Optional[FewShotSettings] = None,
) -> Adaptation:
    """Adapt ``nlp``'s segmenter to ``texts`` in place (module docstring).

    The user dictionary mode becomes "prefer" in ``nlp.config`` too, so the
    saved pipeline loads with it; words already in the user dictionary stay.
    mining: None for the defaults. self_training: None for no training.
    lexicon: False to self-train without the mined words in the dictionary
        (they are still mined and returned).
    bonus: the decoding bonus of the mined words (user_dictionary_bonus, in
        nats), given besides the lexicon features
        (user_dictionary_bonus_with_lexicon); None: lexicon features only.
    tables, matmuls: how the graph of the new weights is exported
        (Segmenter.export_onnx; a pipeline with a graph only); None: as the
        source's graph was (its cfg's onnx_tables and onnx_matmuls).
    gold: gold sentences, each its words, whose standard the segmenter
        learns as a new default criterion (learn_gold_standard, with
        ``few_shot``, None for the defaults), instead of self-training; the
        ``texts`` that are no gold sentence's text then teach it too
        (learn_from_raw_text).
    RAISES ValueError: for a pipeline without gd_segmenter, settings out of
        range, both ``self_training`` and ``gold``, (training) a model that
        tags B/M/E/S, or (gold) a criterion name the segmenter has already
        (checked before any work);
        ImportError: (training) without torch, or (a pipeline with an ONNX
        graph) without the onnx package, naming the extra.
    """
    mining = mining or MiningSettings()
    mining.check()
    if self_training is not None:
        self_training.check()
    if gold is not None:
        if self_training is not None:
            raise ValueError("Learn from gold sentences or self-train, not both")
        few_shot = few_shot or FewShotSettings()
        few_shot.check()
    name, segmenter = segmenter_component(nlp)
    export = {
        "tables": tables or segmenter.cfg.get("onnx_tables", DEFAULT_TABLES),
        "matmuls": matmuls or segmenter.cfg.get("onnx_matmuls", DEFAULT_MATMULS),
    }
    check_export_options(**export)
    if gold is not None:  # before minutes of labelling and mining
        check_new_criterion_name(segmenter, few_shot.criterion, few_shot.source_criterion)
    if (self_training is not None or gold is not None) and segmenter.model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(
            f"'{name}' tags B/M/E/S: self-training and learning from gold sentences need a gap model "
            "(GD-Transformer); use --lexicon-only"
        )
    texts = list(texts)
    words, probs = label_texts(segmenter, texts, progress)
    model_words = model_word_statistics(texts, words, probs, mining.confidence, mining.max_length)
    mined = mine_lexicon(texts, model_words, mining, segmenter.symbols, progress)
    del words, probs, model_words
    if lexicon:
        config = nlp.get_pipe_config(name)  # saved in config.cfg
        config["user_dictionary_mode"] = "prefer"
        if bonus is not None:
            config["user_dictionary_bonus"] = segmenter.cfg["user_dictionary_bonus"] = float(bonus)
            config["user_dictionary_bonus_with_lexicon"] = segmenter.cfg["user_dictionary_bonus_with_lexicon"] = True
        segmenter.set_user_dictionary_mode("prefer")
        segmenter.add_words([entry.word for entry in mined])
    result = Adaptation(mined, sum(len(text) for text in texts), settings={"mining": asdict(mining)})
    had_graph = segmenter.has_graph
    if self_training is not None:
        _, probs = label_texts(segmenter, texts, progress, desc="label")
        result.self_training = self_train(segmenter, texts, probs, self_training, progress)
        result.settings["self_training"] = asdict(self_training)
    if gold is not None:
        result.few_shot = learn_gold_standard(nlp, segmenter, gold, few_shot, progress)
        result.settings["few_shot"] = asdict(few_shot)
        raw_lines = _lines_beyond(texts, gold)
        if raw_lines and few_shot.raw_steps:
            _, probs = label_texts(segmenter, raw_lines, progress, desc="label")
            result.few_shot.update(learn_from_raw_text(nlp, segmenter, gold, raw_lines, probs, few_shot, progress))
    if had_graph and (self_training is not None or gold is not None):
        # New weights drop the old graph: export theirs, so the result runs
        # on ONNX Runtime as its source did (static int8 products are
        # calibrated on the domain's own text).
        segmenter.export_onnx(texts[:CALIBRATION_TEXTS], **export)
        result.settings["onnx_export"] = export
    return result


def _lines_beyond(texts: Sequence[str], gold: Sequence[Sequence[str]]) -> List[str]:
    """The texts that are no gold sentence's text (without raw text, ``texts`` are the gold sentences' own)."""
    gold_texts = {"".join(words) for words in gold}
    return [text for text in texts if text not in gold_texts]
