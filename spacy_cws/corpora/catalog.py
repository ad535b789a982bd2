"""Where each known corpus's files live, relative to an assets folder.

The layout mirrors ../shared/data (and the project's ``assets/`` after
``fetch``): SIGHAN 2005 files under ``sighan2005/NAME/`` with the official
training file as ``training.utf8``; CTB6, SXU and ZX under their own folders.
A corpus without a dev file takes the last 10% of its training sentences.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional


@dataclass(frozen=True)
class CorpusFiles:
    """One corpus (segmentation criterion) and its files.

    format: "sighan" (words separated by whitespace) or "wordpos" (word_POS).
    train, dev, test_gold: segmented files; dev None = split from train.
    test_raw: the official unsegmented test input, or None to use the gold words joined.
    train_words: the official training word list for OOV measures, or None to
        derive it from the training file.
    opencc: OpenCC conversion the model's view uses (Traditional corpora), or None.
    source: what the corpus is and where it comes from, for model cards.
    terms: its terms of use, for model cards.
    """

    name: str
    format: str
    train: str
    test_gold: str
    dev: Optional[str] = None
    test_raw: Optional[str] = None
    train_words: Optional[str] = None
    opencc: Optional[str] = None
    source: str = ""
    terms: str = "research use only"

    def path(self, assets: Path, field: str) -> Optional[Path]:
        """The absolute path of one of the files above, or None if the corpus has none."""
        relative = getattr(self, field)
        return None if relative is None else Path(assets) / relative


SIGHAN2005_TERMS = (
    "SIGHAN 2005 Bakeoff data: research use; other uses must be petitioned to the "
    "providers (Academia Sinica, City University of Hong Kong, Peking University, Microsoft Research)"
)
LDC_CTB6_TERMS = "derived from the LDC's Penn Chinese Treebank 6.0 (LDC2007T36): research use only (LDC user agreement)"
SIGHAN2008_TERMS = "SIGHAN 2008 Bakeoff data: research use only (SIGHAN 2008 copyright agreement)"


def _sighan2005(name: str, opencc: Optional[str] = None) -> CorpusFiles:
    folder = f"sighan2005/{name}"
    return CorpusFiles(
        name=name,
        format="sighan",
        train=f"{folder}/training.utf8",
        test_gold=f"{folder}/test_gold.utf8",
        test_raw=f"{folder}/test.utf8",
        train_words=f"{folder}/training_words.utf8",
        opencc=opencc,
        source=f"SIGHAN 2005 Bakeoff, {name.upper()} corpus (icwb2-data)",
        terms=SIGHAN2005_TERMS,
    )


CORPORA: Dict[str, CorpusFiles] = {
    "pku": _sighan2005("pku"),
    "msr": _sighan2005("msr"),
    # Traditional corpora: the model sees Simplified characters (seed-models.md A1).
    "as": _sighan2005("as", opencc="tw2s"),
    "cityu": _sighan2005("cityu", opencc="hk2s"),
    "ctb6": CorpusFiles(
        "ctb6",
        "sighan",
        train="ctb6/train.seg",
        dev="ctb6/dev.seg",
        test_gold="ctb6/test.seg",
        source="Penn Chinese Treebank 6.0 word segmentation, standard train/dev/test split",
        terms=LDC_CTB6_TERMS,
    ),
    "sxu": CorpusFiles(
        "sxu",
        "sighan",
        train="sighan2008_sxu/train.txt",
        test_gold="sighan2008_sxu/test.txt",
        source="SIGHAN 2008 Bakeoff, SXU corpus",
        terms=SIGHAN2008_TERMS,
    ),
    "zx": CorpusFiles(
        "zx",
        "wordpos",
        train="zx/train.zhuxian.wordpos",
        dev="zx/dev.zhuxian.wordpos",
        test_gold="zx/test.zhuxian.wordpos",
        source="ZhuXian novel (Zhang et al. 2014), word_POS",
    ),
}


def get_corpus(name: str) -> CorpusFiles:
    """The catalogue entry for ``name``. RAISES KeyError listing the known corpora."""
    try:
        return CORPORA[name]
    except KeyError:
        raise KeyError(f"Unknown corpus '{name}': choose one of {', '.join(CORPORA)}") from None
