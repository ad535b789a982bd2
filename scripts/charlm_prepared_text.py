"""Pretrain the character LM (docs/guides/character-lm.md) on a machine that
has torch and transformers but not spaCy, such as a GPU machine: the text is
collected here, with spaCy, into one compressed file, and trained on there
by the package's own ``pretrain_charlm``.

    python scripts/charlm_prepared_text.py collect TEXT.json.xz CORPUS... -x DEV_OR_TEST... [--config CFG]
    python scripts/charlm_prepared_text.py pretrain TEXT.json.xz OUTPUT [--resume] [--max-minutes M]

``collect`` reads the corpora as ``pretrain-charlm`` does
(``collect_pretraining_text``) and stores the training and held-out texts,
the counts per source and the settings of the config; ``pretrain`` writes
OUTPUT exactly as ``python -m spacy_cws pretrain-charlm OUTPUT ...`` would
(checkpoints, model, metrics.json), so that command's ``--resume`` continues
it here. The package's ``__init__`` imports spaCy, so ``pretrain`` loads the
charlm modules without it.
"""
import argparse
import json
import lzma
import sys
import types
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collect(args: argparse.Namespace) -> None:
    from spacy.util import load_config

    from spacy_cws.charlm.pretraining import CharLMSettings
    from spacy_cws.charlm.pretraining_text import collect_pretraining_text

    config = load_config(args.config, interpolate=True)
    settings = CharLMSettings.from_config(config)
    settings.check()
    text = collect_pretraining_text(args.corpora, settings.heldout_share, args.exclude)
    record = {"settings": asdict(settings), "train": text.train, "heldout": text.heldout, "sources": text.sources}
    with lzma.open(args.text, "wt", encoding="utf-8") as file:
        json.dump(record, file, ensure_ascii=False)
    print(f"{args.text}: {len(text.train):,} training and {len(text.heldout):,} held-out texts, "
          f"{text.n_characters:,} characters")


def pretrain(args: argparse.Namespace) -> None:
    # Import spacy_cws.charlm without running spacy_cws/__init__.py (spaCy) or loading the DocBin reader.
    for name in ("spacy_cws", "spacy_cws.ngram_vectors"):
        package = types.ModuleType(name)
        package.__path__ = [str(ROOT.joinpath(*name.split(".")))]
        sys.modules[name] = package
    reader = types.ModuleType("spacy_cws.ngram_vectors.training_texts")
    reader.training_texts = None
    sys.modules[reader.__name__] = reader
    from spacy_cws.charlm.pretraining import CharLMSettings, pretrain_charlm
    from spacy_cws.charlm.pretraining_text import PretrainingText

    with lzma.open(args.text, "rt", encoding="utf-8") as file:
        record = json.load(file)
    text = PretrainingText(train=record["train"], heldout=record["heldout"], sources=record["sources"])
    metrics = pretrain_charlm(text, args.output, CharLMSettings(**record["settings"]), resume=args.resume,
                              max_minutes=args.max_minutes)
    print(json.dumps({key: metrics[key] for key in ("steps", "heldout_masked_lm_accuracy", "last_train_loss")}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    first = commands.add_parser("collect", help="Collect the text (needs spaCy)")
    first.add_argument("text", type=Path)
    first.add_argument("corpora", type=Path, nargs="+")
    first.add_argument("-x", "--exclude", type=Path, action="append", default=[])
    first.add_argument("--config", type=Path, default=ROOT / "configs" / "charlm.cfg")
    second = commands.add_parser("pretrain", help="Pretrain on collected text (needs torch and transformers)")
    second.add_argument("text", type=Path)
    second.add_argument("output", type=Path)
    second.add_argument("--resume", action="store_true")
    second.add_argument("--max-minutes", type=float, default=None)
    args = parser.parse_args()
    collect(args) if args.command == "collect" else pretrain(args)


if __name__ == "__main__":
    main()
