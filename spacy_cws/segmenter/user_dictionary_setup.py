"""Giving a loaded pipeline's segmenters a user dictionary file."""
from pathlib import Path
from typing import Union

from spacy.language import Language

from ..lexicon import read_user_dictionary
from .pipeline_segmenters import segmenters_of


def add_user_dictionary(nlp: Language, path: Union[str, Path], mode: str = "force") -> int:
    """Add the words of a user dictionary file (jieba/pkuseg format) to every
    segmenter of ``nlp`` (component or tokenizer), in ``mode`` ("force" or "prefer").

    RETURNS: how many words the file holds.
    RAISES ValueError: if the pipeline has no segmenter, for a bad mode, for
        "prefer" with a model without a lexicon, or a file that is not UTF-8;
        FileNotFoundError: for a missing file.
    """
    segmenters = segmenters_of(nlp)
    if not segmenters:
        raise ValueError("The pipeline has no gd_segmenter (component or tokenizer) to give a user dictionary")
    words = read_user_dictionary(path)  # a Lexicon: its POS tags go with the words
    for segmenter in segmenters:
        segmenter.set_user_dictionary_mode(mode)
        segmenter.add_words(words)
    return len(words)
