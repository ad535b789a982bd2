"""The pipeline of a segmenting run: its options set, and the segmenter that
does all its work where one does."""
from pathlib import Path
from typing import Optional, Union

import spacy
from spacy.language import Language

from ..segmenter.char_pretokenizer import CharPretokenizer
from ..segmenter.component import Segmenter
from ..segmenter.default_criterion import set_default_criterion
from ..segmenter.segmenter_tokenizer import SegmenterTokenizer
from ..segmenter.user_dictionary_setup import add_user_dictionary


def configure_pipeline(
    nlp: Language,
    criterion: Optional[str] = None,
    user_dict: Optional[Union[str, Path]] = None,
    user_dict_mode: str = "force",
    max_length: Optional[int] = None,
) -> Language:
    """``nlp`` with (each unless None) its ``nlp.max_length``, its default
    criterion (set_default_criterion) and a user dictionary file in
    ``user_dict_mode`` (add_user_dictionary) set.

    RAISES ValueError: for a criterion or user dictionary the pipeline cannot
        take, or a user dictionary that is not UTF-8; OSError: for a user
        dictionary that cannot be read. Warns UserDictionaryWarning for each
        line of the user dictionary it cannot read.
    """
    if max_length is not None:
        nlp.max_length = max_length
    if criterion is not None:
        set_default_criterion(nlp, criterion)
    if user_dict is not None:
        add_user_dictionary(nlp, user_dict, user_dict_mode)
    return nlp


def load_configured(
    model: str,
    criterion: Optional[str] = None,
    user_dict: Optional[Union[str, Path]] = None,
    user_dict_mode: str = "force",
    max_length: Optional[int] = None,
) -> Language:
    """``spacy.load(model)``, configured (configure_pipeline): how each worker
    of the Ray engine loads the run's pipeline.
    RAISES what spacy.load and configure_pipeline raise."""
    return configure_pipeline(spacy.load(model), criterion, user_dict, user_dict_mode, max_length)


def sole_segmenter(nlp: Language) -> Optional[Segmenter]:
    """The Segmenter that does all of ``nlp``'s work, or None: the tokenizer
    form with no components, or the character pretokenizer followed by a
    Segmenter component and nothing else."""
    if isinstance(nlp.tokenizer, SegmenterTokenizer):
        return nlp.tokenizer.segmenter if not nlp.pipeline else None
    if isinstance(nlp.tokenizer, CharPretokenizer) and len(nlp.pipeline) == 1:
        component = nlp.pipeline[0][1]
        return component if isinstance(component, Segmenter) else None
    return None
