"""A pair of pretrained vector tables, unigrams and bigrams, saved as a folder."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Union

import srsly

UNIGRAM_FILE = "unigrams.w2v"
BIGRAM_FILE = "bigrams.w2v"
META_FILE = "meta.json"
MISSING_GENSIM = 'Pretrained n-gram vectors need gensim: pip install -e ".[vectors]" (or pip install gensim)'


def _gensim_keyed_vectors():
    try:
        from gensim.models import KeyedVectors
    except ImportError as err:
        raise ImportError(MISSING_GENSIM) from err
    return KeyedVectors


@dataclass
class NgramVectors:
    """Pretrained unigram and bigram vectors (gensim KeyedVectors).

    unigrams: one vector per symbol (a character, or "0"/"X" for a number or
        Latin run), float32 (n_unigrams, unigram width).
    bigrams: one vector per symbol pair, keyed by ngram_tokens.bigram_key,
        float32 (n_bigrams, bigram width).
    normalisation: the Normaliser settings the symbols were made with
        (fold_width, collapse_runs, opencc); a segmenter with other settings
        cannot use the vectors.
    meta: provenance: the source files, their texts and characters, and the
        word2vec settings.
    """

    unigrams: "KeyedVectors"  # noqa: F821 (gensim, imported lazily)
    bigrams: "KeyedVectors"  # noqa: F821
    normalisation: Dict[str, object]
    meta: Dict[str, object] = field(default_factory=dict)

    def to_disk(self, path: Union[str, Path]) -> None:
        """Write PATH/unigrams.w2v and PATH/bigrams.w2v (word2vec binary format)
        and PATH/meta.json."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.unigrams.save_word2vec_format(str(path / UNIGRAM_FILE), binary=True)
        self.bigrams.save_word2vec_format(str(path / BIGRAM_FILE), binary=True)
        srsly.write_json(path / META_FILE, {"normalisation": self.normalisation, **self.meta})

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "NgramVectors":
        """Read a folder written by to_disk.

        RAISES FileNotFoundError: naming the missing file (and the command
            that writes it); ImportError: without gensim.
        """
        path = Path(path)
        for name in (UNIGRAM_FILE, BIGRAM_FILE, META_FILE):
            if not (path / name).is_file():
                raise FileNotFoundError(
                    f"{path / name} not found: write the vectors with python -m spacy_cws ngram-vectors {path} ..."
                )
        keyed_vectors = _gensim_keyed_vectors()
        meta = dict(srsly.read_json(path / META_FILE))
        normalisation = meta.pop("normalisation")
        return cls(
            unigrams=keyed_vectors.load_word2vec_format(str(path / UNIGRAM_FILE), binary=True),
            bigrams=keyed_vectors.load_word2vec_format(str(path / BIGRAM_FILE), binary=True),
            normalisation=normalisation,
            meta=meta,
        )
