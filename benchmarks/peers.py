"""Peer segmenters for the benchmark, behind one interface.

Each loader returns a ``Segment`` function: a list of texts in, one list of
words per text out. Batches (rather than one text at a time) let spaCy
pipelines use ``nlp.pipe``; the other peers simply loop. Words may include
whitespace tokens (jieba and spaCy keep spaces); the harness drops those when
it writes the system output.

``PEERS`` maps a peer kind to its loader, the modules it imports (checked
before loading, so a missing package gives a skip message naming the pip
package instead of a crash) and whether it needs a model path.
"""
import importlib
import importlib.util
import json
import os
from importlib import metadata
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

Segment = Callable[[Sequence[str]], List[List[str]]]

# nlp.pipe batch size for spaCy pipelines: the default of `spacy_cws evaluate`.
PIPE_BATCH_SIZE = 256


def load_jieba() -> Segment:
    """jieba.cut in its default ("accurate") mode, HMM on, default dictionary."""
    import jieba

    # jieba loads its dictionary on the first cut; do it now so that it counts
    # as load time, not segmentation time.
    jieba.initialize()
    return lambda texts: [jieba.lcut(text, HMM=True) for text in texts]


def load_thulac() -> Segment:
    """THULAC with its bundled model, segmentation only (no POS tags)."""
    import thulac

    model = thulac.thulac(seg_only=True)
    # cut() returns [word, tag] pairs; the tag is empty with seg_only.
    return lambda texts: [[word for word, _ in model.cut(text)] for text in texts]


def _load_pkuseg(path: Path, user_dict: Optional[str]) -> Segment:
    import spacy_pkuseg

    # A model_name that is not one of pkuseg's download names is read as a
    # folder (weights.npz plus features.msgpack or features.pkl).
    model = spacy_pkuseg.pkuseg(model_name=str(path), user_dict=user_dict)
    return lambda texts: [model.cut(text) for text in texts]


def load_pkuseg_mixed(path: Path) -> Segment:
    """pkuseg's pretrained mixed-domain model (the one pkuseg 0.0.25 ships),
    run as pkuseg runs it by default: with its default dictionary, whose words
    a post-processing step merges."""
    return _load_pkuseg(path, user_dict="default")


def load_pkuseg_trained(path: Path) -> Segment:
    """A pkuseg model retrained with spacy_pkuseg.train. No dictionary
    (user_dict=None), so that it knows only its training corpus."""
    return _load_pkuseg(path, user_dict=None)


def load_spacy_char() -> Segment:
    """spaCy's Chinese tokenizer with segmenter "char": one token per character."""
    import spacy

    nlp = spacy.blank("zh")
    return lambda texts: [[token.text for token in doc] for doc in nlp.tokenizer.pipe(texts)]


def load_spacy_jieba() -> Segment:
    """spaCy's Chinese tokenizer with segmenter "jieba" (jieba.cut, HMM on)."""
    import jieba
    import spacy

    nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
    jieba.initialize()  # as in load_jieba: the dictionary load is load time
    return lambda texts: [[token.text for token in doc] for doc in nlp.tokenizer.pipe(texts)]


# Segmented as part of loading a pipeline: its network is built on first use
# (an ONNX Runtime InferenceSession, a torch inference copy), and the load time and
# the RSS after loading count it, as jieba's count its dictionary.
WARM_UP_TEXT = "今天天气很好。"


def _loaded(path: Path):
    """spacy.load of a folder or an installed package's name without its
    part-of-speech components (words only), its ONNX Runtime threads those
    of the benchmark (OMP_NUM_THREADS, which ONNX Runtime does not read),
    its network built by a first text."""
    import spacy

    from spacy_cws.tagging import TAGGING_COMPONENTS

    # Words only, as the peers run (THULAC seg_only): a shipped pipeline's tagger is left out.
    nlp = spacy.load(str(path), exclude=list(TAGGING_COMPONENTS))
    threads = int(os.environ.get("OMP_NUM_THREADS", "0") or 0)
    for _, component in nlp.components:
        if "inference_threads" in getattr(component, "cfg", {}):
            component.cfg["inference_threads"] = threads  # before the network is built, by the first text
    nlp(WARM_UP_TEXT)
    return nlp


def load_pipeline(path: Path, n_process: int = 1) -> Segment:
    """A spaCy pipeline (e.g. a trained spacy-cws model folder), through nlp.pipe;
    with ``n_process`` > 1 in forked workers, each with the parent's torch
    thread count (the harness sets it before loading)."""
    nlp = _loaded(path)
    return lambda texts: [
        [token.text for token in doc] for doc in nlp.pipe(texts, batch_size=PIPE_BATCH_SIZE, n_process=n_process)
    ]


def load_segment_lines(path: Path, n_process: int = 1) -> Segment:
    """A spaCy pipeline the way ``segment --n-process N`` runs it: a pipeline
    that only segments gives its words without building Docs, and with
    ``n_process`` > 1 from forked workers returning word offsets
    (spacy_cws/streaming/processes.py)."""
    from spacy_cws.streaming.segmentation import segment_lines

    nlp = _loaded(path)
    return lambda texts: [
        [text[start:end] for start, end in words.tolist()]
        for text, words in segment_lines(nlp, texts, PIPE_BATCH_SIZE, n_process=n_process)
    ]


@dataclass(frozen=True)
class PeerKind:
    """One kind of peer segmenter.

    load: loader; called with the model path where needs_path, else with no argument.
    modules: modules the loader imports, paired with the pip package providing each.
    needs_path: whether the peer needs a model folder (given on the command line).
    description: what the peer is and what it was trained on, for the report.
    """

    name: str
    load: Callable[..., Segment]
    modules: Tuple[Tuple[str, str], ...]
    needs_path: bool
    description: str


# The modules of a spacy-cws pipeline peer (their versions go in its records).
SPACY_CWS = (("spacy", "spacy"), ("spacy_cws", "spacy-cws"))

PEERS: Dict[str, PeerKind] = {
    kind.name: kind
    for kind in (
        PeerKind("jieba", load_jieba, (("jieba", "jieba"),), False,
                 "jieba.cut, HMM on, default dictionary"),
        PeerKind("thulac", load_thulac, (("thulac", "thulac"),), False,
                 "thulac.thulac(seg_only=True), bundled model"),
        PeerKind("pkuseg-mixed", load_pkuseg_mixed, (("spacy_pkuseg", "spacy-pkuseg"),), True,
                 "pkuseg 0.0.25 pretrained mixed-domain model with its default dictionary "
                 "(training mix not documented; it may overlap the test sets)"),
        PeerKind("spacy-zh-char", load_spacy_char, (("spacy", "spacy"),), False,
                 'spacy.blank("zh"), segmenter "char" (one token per character)'),
        PeerKind("spacy-zh-jieba", load_spacy_jieba, (("spacy", "spacy"), ("jieba", "jieba")), False,
                 'spacy.blank("zh"), segmenter "jieba"'),
        PeerKind("pkuseg-trained", load_pkuseg_trained, (("spacy_pkuseg", "spacy-pkuseg"),), True,
                 "spacy-pkuseg CRF retrained with spacy_pkuseg.train, no dictionary"),
        PeerKind("pipeline", load_pipeline, SPACY_CWS, True,
                 "spacy-cws pipeline, nlp.pipe"),
        PeerKind("pipeline-2proc", partial(load_pipeline, n_process=2), SPACY_CWS, True,
                 "spacy-cws pipeline, nlp.pipe(n_process=2)"),
        PeerKind("segment", load_segment_lines, SPACY_CWS, True,
                 "spacy-cws pipeline as `segment` runs it (no Docs)"),
        PeerKind("segment-2proc", partial(load_segment_lines, n_process=2), SPACY_CWS, True,
                 "spacy-cws pipeline as `segment --n-process 2` runs it (workers return word offsets)"),
    )
}

# Peers that need no model path: what the benchmark runs unless told otherwise.
DEFAULT_PEERS = tuple(name for name, kind in PEERS.items() if not kind.needs_path)


def get_peer(name: str) -> PeerKind:
    """The registry entry for ``name``. RAISES KeyError listing the known kinds."""
    try:
        return PEERS[name]
    except KeyError:
        raise KeyError(f"Unknown peer '{name}': choose one of {', '.join(PEERS)}") from None


def missing_package(kind: PeerKind) -> Optional[str]:
    """A skip message naming the pip package to install, or None if all the
    peer's modules import."""
    for module, package in kind.modules:
        try:
            importlib.import_module(module)
        except ImportError:
            return f"module '{module}' is not installed (pip install {package})"
    return None


def missing_model(kind: PeerKind, path: Optional[Path]) -> Optional[str]:
    """A skip message when the peer needs a model folder (or an installed
    pipeline package's name) that was not given or does not exist, else None."""
    if not kind.needs_path:
        return None
    if path is None:
        return "no model path given"
    if not Path(path).exists() and importlib.util.find_spec(str(path)) is None:
        return f"model path not found, nor an installed package: {path}"
    return None


def model_version(path: Optional[Path]) -> Optional[str]:
    """The version of a spaCy pipeline given as a folder (its meta.json) or as an
    installed package's name; None for anything else (a pkuseg model folder)."""
    if path is None:
        return None
    meta = Path(path) / "meta.json"
    if meta.is_file():
        return json.loads(meta.read_text(encoding="utf-8")).get("version")
    try:
        return metadata.version(str(path))
    except (metadata.PackageNotFoundError, ValueError):
        return None
