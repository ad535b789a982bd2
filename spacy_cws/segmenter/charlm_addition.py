"""The character LM's features for a trained GD segmenter, which then trains on with them.

Gan & Zhang (2020, section 4.1) feed each character's BERT vector into the
segmenter. A model trained for hours without them need not start again:
``add_charlm`` attaches the frozen LM with a projection of zeros
(nets/charlm_growth.py), so the segmenter's words are unchanged until
training goes on from its weights (configs/cpu_teacher_charlm.cfg sources it).
"""
from pathlib import Path
from typing import Union

from ..nets.charlm_symbols import charlm_folder
from .component import Segmenter
from .new_criterion import GD_ARCHITECTURES

CHARLM_ARCHITECTURE = "spacy-cws.GDTransformer.v4"


def add_charlm(segmenter: Segmenter, path: Union[str, Path], layers: int, pipe_config: dict) -> int:
    """Give ``segmenter`` the features of the character LM at ``path`` (the
    mean of its last ``layers`` layers), added to each symbol's input through
    a projection of zeros, and record it in ``pipe_config`` (the component's
    block, nlp.get_pipe_config(name)): its model becomes
    ``spacy-cws.GDTransformer.v4`` with ``charlm_path``, and its
    ``max_length`` at most what the LM reads, so the saved pipeline builds
    and loads the LM.

    RETURNS: the component's max_length from now on (symbols per sequence).
    RAISES ValueError: for a path that holds no character LM, a segmenter
        with no trained model, a model that is no GD-Transformer or reads an
        LM already, or layers outside 1..the LM's depth;
        ImportError: without torch or transformers, naming the extra.
    """
    from ..nets.charlm_growth import add_charlm_features

    folder = charlm_folder(path)
    segmenter.network.check_initialized(segmenter.name)
    model_config = pipe_config["model"]
    architecture = model_config.get("@architectures")
    if architecture not in GD_ARCHITECTURES or model_config.get("charlm_path"):
        raise ValueError(
            f"'{segmenter.name}' has the architecture {architecture}"
            f"{' with a character LM' if model_config.get('charlm_path') else ''}: character LM features "
            f"are added to a GD-Transformer without them ({', '.join(GD_ARCHITECTURES)})"
        )
    segmenter.network.require_weights(segmenter.name)
    limit = add_charlm_features(segmenter.model, folder, segmenter.symbols, layers)
    segmenter.network.weights_changed()
    settings = segmenter.model.attrs["settings"]
    model_config["@architectures"] = CHARLM_ARCHITECTURE
    model_config["criterion_heads"] = list(settings["criterion_heads"])
    model_config["criterion_layers"] = list(settings.get("criterion_layers", []))
    model_config["charlm_path"] = str(folder)
    model_config["charlm_layers"] = layers
    max_length = min(pipe_config.get("max_length", limit), limit)
    pipe_config["max_length"] = max_length
    segmenter.cfg["max_length"] = max_length
    segmenter.featurizer.max_length = max_length
    return max_length
