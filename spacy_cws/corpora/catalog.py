"""Where each known corpus's files live, relative to an assets folder.

The layout mirrors ../shared/data (and the project's ``assets/`` after
``fetch``): SIGHAN 2005 files under ``sighan2005/NAME/`` with the official
training file as ``training.utf8``; CTB6, SXU and ZX under their own folders;
People's Daily 1998 under ``pku_pfr1998/`` and the SIGHAN 2005 training samples
under ``sighan2005_train_samples/``. A corpus without a dev file takes the last
10% of its training sentences.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple


@dataclass(frozen=True)
class CorpusFiles:
    """One corpus (segmentation criterion) and its files.

    format: the training file's format (formats.FORMATS): "sighan" (words
        separated by whitespace), "wordpos" (word_POS), "pfr" (People's Daily
        1998, word/TAG) or "bies" (a character and its B/I/E/S tag a line).
    dev_format, test_format: the dev and test gold files' formats, if not ``format``.
    train, dev, test_gold: segmented files; dev None = split from train.
    test_raw: the official unsegmented test input, or None to use the gold words joined.
    train_words: the official training word list for OOV measures, or None to
        derive it from the training file.
    opencc: OpenCC conversion the model's view uses (Traditional corpora), or None.
    source: what the corpus is and where it comes from, for model cards.
    terms: its terms of use, for model cards.
    criterion: the segmentation standard its Docs name (``doc._.cws_criterion``);
        None = the corpus name.
    sentences: cut the training file's lines (paragraphs) into sentences at the
        full stops (sentences.py).
    dev_in_train: the dev file's sentences are also in the training file: take
        them out of it (dev_overlap.py; needs ``sentences``).
    split_unlisted: split the training words that ``train_words`` lacks into
        words it holds (listed_words.py).
    held_out_days: dates (``YYYYMMDD``) whose paragraphs a ``pfr`` training
        file loses (held_out_days.py): text kept for tests.
    more_train: further training files, words separated by spaces, whose
        paragraphs join the training text where ``train`` lacks their text
        (more_paragraphs.py).
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
    criterion: Optional[str] = None
    dev_format: Optional[str] = None
    test_format: Optional[str] = None
    sentences: bool = False
    dev_in_train: bool = False
    split_unlisted: bool = False
    held_out_days: Tuple[str, ...] = ()
    more_train: Tuple[str, ...] = ()

    def __post_init__(self):
        if self.criterion is None:
            object.__setattr__(self, "criterion", self.name)
        if self.dev_in_train and not (self.dev and self.sentences):
            raise ValueError(f"corpus {self.name}: dev_in_train needs a dev file and sentences=True")
        if self.split_unlisted and not self.train_words:
            raise ValueError(f"corpus {self.name}: split_unlisted needs the official train_words list")

    def path(self, assets: Path, field: str) -> Optional[Path]:
        """The absolute path of one of the files above, or None if the corpus has none."""
        relative = getattr(self, field)
        return None if relative is None else Path(assets) / relative

    def labelled_files(self) -> List[Tuple[str, str]]:
        """Every file of the corpus as (field, path relative to the assets folder), in the order ``fetch`` gets them."""
        fields = [("train", self.train), *(("more_train", more) for more in self.more_train)]
        fields += [(field, getattr(self, field)) for field in ("dev", "test_raw", "test_gold", "train_words")]
        return [(field, relative) for field, relative in fields if relative is not None]

    def format_of(self, field: str) -> str:
        """The format of the file ``field`` ("train", "dev" or "test_gold")."""
        own = {"dev": self.dev_format, "test_gold": self.test_format}.get(field)
        return own or self.format


SIGHAN2005_TERMS = (
    "SIGHAN 2005 Bakeoff data: research use; other uses must be petitioned to the "
    "providers (Academia Sinica, City University of Hong Kong, Peking University, Microsoft Research)"
)
LDC_CTB6_TERMS = "derived from the LDC's Penn Chinese Treebank 6.0 (LDC2007T36): research use only (LDC user agreement)"
SIGHAN2008_TERMS = "SIGHAN 2008 Bakeoff data: research use only (SIGHAN 2008 copyright agreement)"
# The last three days of PFR (January 1998): held out of pku_pfr's training
# text, the test days of part-of-speech tagging and of the pku criterion on PFR.
PFR_HELD_OUT_DAYS = ("19980129", "19980130", "19980131")
# The days before them: the dev days of part-of-speech tagging (convert-pos).
PFR_POS_DEV_DAYS = ("19980126", "19980127", "19980128")
# People's Daily January + February 1998 as five shuffled folds: their January
# part is a revised edition of 199801.txt, their February part is in no other file.
PFR_FOLDS = tuple(f"pku_pfr1998/cv-{fold}-filter_test.txt" for fold in range(1, 6))
PFR_TERMS = (
    "People's Daily 1998 (PFR, Peking University ICL and Fujitsu): research use only, PKU ICL says it is not "
    "open source; its SIGHAN 2005 revision (dev and test): " + SIGHAN2005_TERMS
)


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
    # The PKU standard without SIGHAN's training file (issue 52): People's Daily
    # January 1998, of which SIGHAN PKU's training set is a revision, and the
    # February paragraphs of the January + February folds, cut into sentences,
    # less the sentences of the SIGHAN PKU training sample used as dev, with the
    # words SIGHAN split split by its word list; SIGHAN PKU test.
    "pku_pfr": CorpusFiles(
        "pku_pfr",
        "pfr",
        train="pku_pfr1998/199801.txt",
        dev="sighan2005_train_samples/pku_dev.txt",
        test_gold="sighan2005/pku/test_gold.utf8",
        test_raw="sighan2005/pku/test.utf8",
        train_words="sighan2005/pku/training_words.utf8",
        source=(
            "People's Daily January 1998 (PFR 1.0, PKU standard) and February 1998 (the January + February folds "
            "of ZTurboX/CWS), less January's last three days and SIGHAN 2005 PKU's training sentences of its ~10% "
            "sample (dev); test: SIGHAN 2005 PKU"
        ),
        terms=PFR_TERMS,
        criterion="pku",
        dev_format="bies",
        test_format="sighan",
        sentences=True,
        dev_in_train=True,
        split_unlisted=True,
        held_out_days=PFR_HELD_OUT_DAYS,
        more_train=PFR_FOLDS,
    ),
    # The MSR standard from the ~10% sample of SIGHAN MSR's training set (its last
    # 10% is dev); SIGHAN MSR test, with OOV against the sample's own words.
    "msr_sample": CorpusFiles(
        "msr_sample",
        "bies",
        train="sighan2005_train_samples/msr_dev.txt",
        test_gold="sighan2005/msr/test_gold.utf8",
        test_raw="sighan2005/msr/test.utf8",
        source="a ~10% sample of SIGHAN 2005 MSR's training set (Xing et al. 2018); test: SIGHAN 2005 MSR",
        terms=SIGHAN2005_TERMS,
        criterion="msr",
        test_format="sighan",
    ),
}


def get_corpus(name: str) -> CorpusFiles:
    """The catalogue entry for ``name``. RAISES KeyError listing the known corpora."""
    try:
        return CORPORA[name]
    except KeyError:
        raise KeyError(f"Unknown corpus '{name}': choose one of {', '.join(CORPORA)}") from None
