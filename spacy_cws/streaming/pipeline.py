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
from ..tagging import TAGGING_COMPONENTS


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
    words_only: bool = False,
) -> Language:
    """``spacy.load(model)``, configured (configure_pipeline), and with
    ``words_only`` its tagger disabled (without_tagging): how each worker
    of the Ray engine loads the run's pipeline.
    RAISES what spacy.load and configure_pipeline raise."""
    nlp = configure_pipeline(spacy.load(model), criterion, user_dict, user_dict_mode, max_length)
    return without_tagging(nlp) if words_only else nlp


def without_tagging(nlp: Language) -> Language:
    """``nlp`` with its part-of-speech components (TAGGING_COMPONENTS: the
    shipped pipelines' tok2vec, tagger and attribute_ruler) disabled, in
    place, when they are all it runs beside its segmenter: for output
    without tags, whose words they never change, the segmenter then runs
    alone (sole_segmenter; the speed-up: docs/guides/part-of-speech.md,
    How big a tagger). A pipeline with other
    components (an ``ner`` may listen to the tok2vec) is left as it is."""
    others = [name for name, component in nlp.pipeline if not isinstance(component, Segmenter)]
    if others and set(others) <= set(TAGGING_COMPONENTS):
        for name in others:
            nlp.disable_pipe(name)
    return nlp


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
