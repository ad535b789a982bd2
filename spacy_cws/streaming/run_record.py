"""Which pipeline wrote a ``segment`` output file: the run record kept beside
it, ``OUTPUT.segment.json``, which ``--resume`` checks before it continues
the output.

The output's lines show its input's characters and its format, which
resume.py checks; they cannot show what chose the words. The record holds
that: the pipeline (its package name, ``lang_name`` of its meta, and its
version), the criterion it segments by where no Doc names one, and the user
dictionary (the sha256 of its bytes and its mode; its path is kept to name it
in messages, and a copy of the same file elsewhere is the same dictionary).
"""
import hashlib
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import srsly
from spacy.language import Language

from ..segmenter.pipeline_segmenters import segmenters_of
from .resume import ResumeError

SUFFIX = ".segment.json"


def record_path(output: Path) -> Path:
    """Where the run record of ``output`` is kept: ``OUTPUT.segment.json`` beside it."""
    return output.with_name(output.name + SUFFIX)


def run_record(nlp: Language, user_dict: Optional[Union[str, Path]], user_dict_mode: str) -> Dict:
    """What chooses the words of a run with the configured pipeline ``nlp``
    (streaming.pipeline.configure_pipeline) and the user dictionary file
    ``user_dict`` (None: none) in ``user_dict_mode``.
    RAISES OSError when the user dictionary cannot be read."""
    segmenter = next(iter(segmenters_of(nlp)), None)
    return {
        "pipeline": f"{nlp.meta['lang']}_{nlp.meta['name']}",
        "version": nlp.meta["version"],
        "criterion": None if segmenter is None else segmenter.cfg.get("criterion"),
        "user_dict": None if user_dict is None else _user_dictionary(Path(user_dict), user_dict_mode),
    }


def _user_dictionary(path: Path, mode: str) -> Dict:
    return {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "mode": mode}


def write_run_record(output: Path, record: Dict) -> None:
    """Keep ``record`` beside ``output`` (record_path), if ``output`` is a
    regular file: a device or pipe (/dev/null, /dev/stdout) cannot be resumed.
    RAISES OSError when the record cannot be written."""
    if output.is_file():
        srsly.write_json(record_path(output), record)


def check_run_record(output: Path, record: Dict) -> bool:
    """Check that the run record of ``output`` is ``record``: the output was
    begun by the same pipeline, version, criterion and user dictionary.
    RETURNS False when ``output`` has no run record (nothing to check: e.g.
        it was written to standard output, or by an older spacy-cws), True
        when it was checked.
    RAISES ResumeError naming what differs, or a record that cannot be read.
    """
    path = record_path(output)
    if not path.exists():
        return False
    try:
        recorded = srsly.read_json(path)
        differences = record_differences(recorded, record)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ResumeError(
            f"Cannot resume: {path}, the record of the run that wrote {output}, cannot be read ({err}). "
            "Remove the output and its record to start again."
        ) from None
    if differences:
        raise ResumeError(
            f"Cannot resume: {output} was begun with another {'; another '.join(differences)} ({path}). "
            "Pass the --model, --criterion, --user-dict and --user-dict-mode of the interrupted run, "
            "or remove the output to start again."
        )
    return True


def record_differences(recorded: Dict, record: Dict) -> List[str]:
    """What differs between two run records, each said as "WHAT: THEN, now NOW".
    RAISES KeyError, TypeError for a record without the fields of run_record."""
    differences = []
    if (recorded["pipeline"], recorded["version"]) != (record["pipeline"], record["version"]):
        differences.append(f"pipeline: {_pipeline(recorded)}, now {_pipeline(record)}")
    if recorded["criterion"] != record["criterion"]:
        differences.append(f"criterion: {recorded['criterion']}, now {record['criterion']}")
    then, now = recorded["user_dict"], record["user_dict"]
    if _dictionary_key(then) != _dictionary_key(now):
        differences.append(f"user dictionary: {_dictionary(then)}, now {_dictionary(now)}")
    return differences


def _pipeline(record: Dict) -> str:
    return f"{record['pipeline']} {record['version']}"


def _dictionary_key(user_dict: Optional[Dict]) -> Optional[Tuple[str, str]]:
    """What decides a user dictionary's words: its bytes (their hash) and its mode, not its path."""
    return None if user_dict is None else (user_dict["sha256"], user_dict["mode"])


def _dictionary(user_dict: Optional[Dict]) -> str:
    if user_dict is None:
        return "none"
    return f"{user_dict['path']} (sha256 {user_dict['sha256'][:12]}..., {user_dict['mode']} mode)"
