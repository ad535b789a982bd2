"""Settings that left ``[components.NAME]`` after spacy-cws 0.5.1, and where each went.

Configs of spacy-cws 0.5.1 and earlier, the shipped pipelines' among them,
set them in the component's block. spaCy checks that block against the
factory's parameters, so the factory still takes each of them (None, what
spaCy writes for a config that leaves it out, is unset) and reads a value
with one DeprecationWarning naming them and where they belong now:

- the training settings (training_settings.py) are used as before, and win
  over the ones the pipeline saved, as the config always did;
- ``precision`` still sets the torch inference copy's precision
  (``Segmenter.set_inference_precision``);
- ``onnx_tables`` and ``onnx_matmuls`` are ignored: ``Segmenter.export_onnx``
  and the commands that call it take them as arguments, and a pipeline's
  graph keeps a record of how it was exported.
"""
import dataclasses
import warnings
from typing import Any, Dict, List

from .training_settings import TrainingSettings

_INITIALIZE = "[initialize.components.{name}]"
# Where each moved setting belongs now ({name}: the component's name).
MOVED_SETTINGS = {
    "precision": "Segmenter.set_inference_precision (torch only; ONNX Runtime runs the graph's own)",
    "onnx_tables": "export-onnx --tables or Segmenter.export_onnx(tables=...)",
    "onnx_matmuls": "export-onnx --matmuls or Segmenter.export_onnx(matmuls=...)",
    "bigram_min_count": _INITIALIZE,
    "multi_criteria": _INITIALIZE,
    "train_criteria_only": "Segmenter.add_criterion (python -m spacy_cws add-criterion), saved with the pipeline",
    "jackknife_folds": _INITIALIZE,
    "word_replacement_threshold": _INITIALIZE,
}
TRAINING_KEYS = tuple(field.name for field in dataclasses.fields(TrainingSettings))
EXPORT_KEYS = ("onnx_tables", "onnx_matmuls")  # a config's values are ignored (module docstring)


def read_moved_settings(given: Dict[str, Any], component: str) -> Dict[str, Any]:
    """The moved settings that a config sets (``given``'s values that are not
    None), after one DeprecationWarning naming them and where each belongs now."""
    moved = {key: value for key, value in given.items() if value is not None}
    if moved:
        places: Dict[str, List[str]] = {}
        for key in moved:
            places.setdefault(MOVED_SETTINGS[key].format(name=component), []).append(key)
        ignored = [key for key in moved if key in EXPORT_KEYS]
        note = f"; {' and '.join(ignored)} no longer act here" if ignored else ""
        warnings.warn(
            f"[components.{component}] sets settings that moved, read as spacy-cws 0.5.1 read them{note}. "
            + "Where they belong now: "
            + "; ".join(f"{', '.join(keys)}: {place}" for place, keys in places.items())
            + ". `python -m spacy_cws configure PIPELINE OUTPUT` saves a copy of a pipeline without them.",
            DeprecationWarning,
            stacklevel=3,
        )
    return moved


def upgrade_config(pipe_config: Dict[str, Any], unbroken_patterns: List[str]) -> None:
    """Bring a component's config block (``nlp.get_pipe_config``) up to date
    before its pipeline is saved, in place: without the moved settings (the
    component holds what they set; its training settings are saved with it)
    and with ``unbroken_patterns``, the component's own (settings.py: the
    earlier defaults read as today's)."""
    for key in MOVED_SETTINGS:
        pipe_config.pop(key, None)
    pipe_config["unbroken_patterns"] = list(unbroken_patterns)


def check_training_conflicts(given: Dict[str, Any], configured: Dict[str, Any], component: str) -> Dict[str, Any]:
    """The training settings of ``given`` that are set (not None), e.g. by
    ``[initialize.components.NAME]``. RAISES ValueError: for one that the
    component's config (``configured``, its moved settings) sets to another value."""
    set_here = {key: value for key, value in given.items() if value is not None}
    for key, value in set_here.items():
        if key in configured and configured[key] != value:
            raise ValueError(
                f"'{component}' has {key} = {configured[key]!r} in [components.{component}] and {value!r} in "
                f"[initialize.components.{component}]: keep it in [initialize.components.{component}] only"
            )
    return set_here
