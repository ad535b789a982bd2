"""The two pkuseg models of the peer benchmark (benchmarks/benchmark_peers.py).

    python scripts/train_pkuseg.py fetch-mixed assets/pkuseg_mixed
    python scripts/train_pkuseg.py train ctb6 ../shared/data training/pkuseg-ctb6

fetch-mixed: pkuseg's pretrained mixed-domain model ships only inside the
pkuseg 0.0.25 source distribution (pkuseg/models/default: features.pkl and
weights.npz). This downloads that sdist with pip (or takes --sdist), checks
its sha256 and copies the two model files to DEST, which
``spacy_pkuseg.pkuseg(model_name=DEST)`` loads (it reads features.pkl when
there is no features.msgpack, with a warning).

train: retrains pkuseg's CRF on a catalogued corpus with
``spacy_pkuseg.train`` (single process): the training file, and the dev file
(or, without one, the last 10% of the training sentences) for its
per-iteration F1 log, both rewritten as words separated by one space, one
sentence a line, the format pkuseg reads. OUTPUT_DIR receives the model
(features.msgpack, weights.npz), the text files under data/ and
training.json (sizes, seconds, peak memory).
"""
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import List, Optional

import typer

from spacy_cws.corpora.catalog import get_corpus
from spacy_cws.corpora.convert import dev_size
from spacy_cws.corpora.formats import read_segmented

# The benchmark's memory measure, from the benchmark's folder (tooling, not the package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from memory import peak_rss_mb

app = typer.Typer(add_completion=False, no_args_is_help=True)

PKUSEG_SDIST = "pkuseg==0.0.25"
# sha256 of pkuseg-0.0.25.tar.gz on PyPI: the model files hold a pickle, so
# only this exact archive is unpacked.
PKUSEG_SDIST_SHA256 = "dd012bf93689721c9574bc2b2ba98fb4ac22790cec0af354a78e217828b81e91"
MODEL_MEMBERS = ("pkuseg-0.0.25/pkuseg/models/default/features.pkl", "pkuseg-0.0.25/pkuseg/models/default/weights.npz")


@app.command("fetch-mixed")
def fetch_mixed(
    dest: Path = typer.Argument(..., help="Folder for the model files, e.g. assets/pkuseg_mixed."),
    sdist: Optional[Path] = typer.Option(None, "--sdist", help="An already downloaded pkuseg-0.0.25.tar.gz."),
):
    """Put pkuseg's pretrained mixed model (from the pkuseg 0.0.25 sdist) in DEST."""
    with tempfile.TemporaryDirectory() as tmp:
        if sdist is None:
            # --no-build-isolation: pip prepares the sdist's metadata, and its
            # setup.py imports numpy, which an isolated build env lacks.
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", "pkuseg",
                 "--no-build-isolation", PKUSEG_SDIST, "-d", tmp],
                check=True,
            )
            sdist = next(Path(tmp).glob("pkuseg-*.tar.gz"))
        digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
        if digest != PKUSEG_SDIST_SHA256:
            typer.echo(f"{sdist}: sha256 {digest}, expected {PKUSEG_SDIST_SHA256}", err=True)
            raise typer.Exit(1)
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(sdist) as archive:
            for member in MODEL_MEMBERS:
                with archive.extractfile(member) as source, (dest / Path(member).name).open("wb") as target:
                    shutil.copyfileobj(source, target)
    typer.echo(f"Wrote {', '.join(Path(m).name for m in MODEL_MEMBERS)} to {dest}")


def _write_sentences(path: Path, sentences: List[List[str]]) -> None:
    path.write_bytes("".join(" ".join(words) + "\n" for words in sentences).encode("utf-8"))


@app.command("train")
def train(
    corpus: str = typer.Argument(..., help="Catalog name, e.g. ctb6."),
    assets: Path = typer.Argument(..., help="Corpus folder in the catalog layout (e.g. ../shared/data)."),
    output_dir: Path = typer.Argument(..., help="Model folder to write, e.g. training/pkuseg-ctb6."),
    train_iter: int = typer.Option(20, "--train-iter", help="Training iterations (pkuseg's default: 20)."),
    max_sentences: Optional[int] = typer.Option(
        None, "--max-sentences", help="Only the first N train and dev sentences (smoke runs)."
    ),
):
    """Retrain pkuseg on CORPUS's training file and save the model in OUTPUT_DIR."""
    import spacy_pkuseg

    files = get_corpus(corpus)
    sentences = [s.words for s in read_segmented(files.path(assets, "train"), files.format)]
    if files.dev:
        dev = [s.words for s in read_segmented(files.path(assets, "dev"), files.format)]
    else:
        # The same split as `spacy_cws prepare`: the last 10% of training sentences.
        held_out = dev_size(len(sentences), 0.1)
        sentences, dev = sentences[:-held_out], sentences[-held_out:]
    sentences, dev = sentences[:max_sentences], dev[:max_sentences]
    data = output_dir / "data"
    data.mkdir(parents=True, exist_ok=True)
    _write_sentences(data / "train.txt", sentences)
    _write_sentences(data / "dev.txt", dev)
    start = time.perf_counter()
    spacy_pkuseg.train(str(data / "train.txt"), str(data / "dev.txt"), str(output_dir), train_iter=train_iter)
    seconds = time.perf_counter() - start
    summary = {
        "corpus": corpus,
        "train_sentences": len(sentences),
        "train_characters": sum(len(word) for words in sentences for word in words),
        "dev_sentences": len(dev),
        "train_iter": train_iter,
        "seconds": seconds,
        # Training runs in this process, so the process peak is its peak.
        "peak_rss_mb": peak_rss_mb(),
        "spacy_pkuseg": metadata.version("spacy-pkuseg"),
    }
    (output_dir / "training.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    typer.echo(json.dumps(summary))


if __name__ == "__main__":
    app()
