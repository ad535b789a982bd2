"""Saving and loading a trainable component whose state is its ``cfg``, its ``model``
and optional binary parts (e.g. an exported graph of the model)."""
from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import srsly
from spacy import util
from thinc.api import Model
from thinc.util import convert_recursive, is_xp_array

from .damaged_pipeline import GOOD_COPY, DamagedPipelineError
from .freed_memory import release_freed_memory

# The key of a saved cfg that records the optional parts saved with it.
SAVED_PARTS = "saved_parts"


def model_message(model: Model, data: bytes) -> dict:
    """The saved ``model`` bytes (thinc's Model.to_bytes) decoded as thinc's
    Model.from_bytes decodes them, for ``model.from_dict``. Taking the
    message instead of the bytes lets a caller drop the bytes before the
    weights are built (from_disk: the file is not held during loading).

    RAISES ValueError: if ``data`` is not msgpack (a truncated or corrupt file).
    """
    try:
        msg = srsly.msgpack_loads(data)
    except Exception as err:  # msgpack's own exception types
        raise ValueError(f"the model file is corrupt: not a saved model ({type(err).__name__}: {err})") from err
    return convert_recursive(is_xp_array, model.ops.asarray, msg)


class CfgAndModelSerialization:
    """to_bytes / from_bytes / to_disk / from_disk for a TrainablePipe that
    keeps a JSON ``cfg`` and a thinc ``model`` (spaCy's util.to_disk with a
    dict of serializers, as spacy/pipeline/*.py do).

    The component defines ``_load_cfg(cfg: dict)`` (take what was learned)
    and ``_load_model_msg(msg: dict)`` (build the model if needed, then load
    the decoded message of ``model_message``; ValueError for weights it
    cannot use). It may define ``_optional_parts()``: per key (a file name
    under the component's folder) a getter of the part's bytes (None: the
    component has none, and no file is written) and a setter taking them,
    or from ``from_disk`` the part's file (pathlib.Path: the setter reads it,
    now or when needed), or None (a saved pipeline without the part, or the
    part excluded); parts
    load after cfg and before the model, which ``_load_model_bytes`` takes
    (the component may keep the bytes to load later).
    The saved cfg records the optional parts saved with it (SAVED_PARTS): one
    that it names must be there when the component loads, unless excluded.
    After loading, ``_saved_parts`` is that record, or None for a cfg saved
    before it was kept.
    RAISES FileNotFoundError naming a missing cfg or model; DamagedPipelineError
        naming a missing part that the cfg records; ValueError naming the file
        for a cfg that is not JSON or weights that do not load.
    """

    _saved_parts: Optional[List[str]] = None

    def _optional_parts(self) -> Dict[str, Tuple[Callable[[], Optional[bytes]], Callable[[Optional[bytes]], None]]]:
        return {}

    def _model_bytes(self) -> bytes:
        """The bytes saved as "model" (thinc's Model.to_bytes)."""
        return self.model.to_bytes()

    def _load_model_bytes(self, data: bytes) -> None:
        """Take the saved "model" bytes (after cfg and the optional parts).
        RAISES ValueError: for bytes that are not a saved model."""
        self._load_model_msg(model_message(self.model, data))

    def _load_model_file(self, path: Path) -> None:
        """Take the saved "model" file (from_disk): its bytes, by default."""
        self._load_model_bytes(path.read_bytes())

    def _cfg_to_save(self, saved_parts: List[str]) -> dict:
        """The cfg as saved: with the record of the optional parts saved (the
        list is filled as they are written, before the cfg)."""
        return {**self.cfg, SAVED_PARTS: saved_parts}

    def _take_cfg(self, cfg: dict) -> None:
        """Take a saved cfg: the record of its parts, then the rest (``_load_cfg``)."""
        self._saved_parts = cfg.pop(SAVED_PARTS, None)
        self._load_cfg(cfg)

    def _require_saved_part(self, key: str, where: str) -> None:
        """RAISES DamagedPipelineError: where the saved cfg records the part ``key``
        (missing from ``where``)."""
        if key in (self._saved_parts or ()):
            raise DamagedPipelineError(
                f"'{self.name}' cannot load: {where} is missing, though the pipeline was saved with it. {GOOD_COPY}"
            )

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        saved_parts: List[str] = []
        serialize = {"model": self._model_bytes}
        for key, (get, _) in self._optional_parts().items():
            serialize[key] = partial(_recorded, key, get, saved_parts)
        serialize["cfg"] = lambda: srsly.json_dumps(self._cfg_to_save(saved_parts))  # last: the parts recorded
        return util.to_bytes(serialize, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()):
        msg = srsly.msgpack_loads(bytes_data)
        deserialize = {"cfg": lambda b: self._take_cfg(srsly.json_loads(b))}
        for key, (_, put) in self._optional_parts().items():
            excluded = _stem(key) in exclude
            deserialize[key] = partial(self._take_part_bytes, key, put, excluded)
            # Saved without the part, or excluded: the component has none
            # (a part belongs to the weights it was saved with).
            msg[key] = msg.get(key) if not excluded else None
        deserialize["model"] = self._load_model_bytes
        util.from_dict(msg, deserialize, [name for name in exclude if name not in map(_stem, self._optional_parts())])
        del msg  # the parts' bytes, decoded: freed before they are given back
        release_freed_memory()  # (freed_memory.py)
        return self

    def _take_part_bytes(self, key: str, put: Callable, excluded: bool, data: Optional[bytes]) -> None:
        """Give a part's saved bytes (None: none saved, or excluded) to its setter ``put``.
        RAISES DamagedPipelineError: as _require_saved_part."""
        if data is None and not excluded:
            self._require_saved_part(key, f"its part '{key}' (in the pipeline's bytes)")
        put(data)

    def to_disk(self, path, *, exclude: Iterable[str] = tuple()) -> None:
        saved_parts: List[str] = []
        serialize = {"model": lambda p: p.write_bytes(self._model_bytes())}
        for key, (get, _) in self._optional_parts().items():
            serialize[key] = lambda p, key=key, get=get: _write_part(p, _recorded(key, get, saved_parts))
        serialize["cfg"] = lambda p: srsly.write_json(p, self._cfg_to_save(saved_parts))  # last: the parts recorded
        util.to_disk(path, serialize, exclude)

    def from_disk(self, path, *, exclude: Iterable[str] = tuple()):
        path = Path(path)
        for name in ("cfg", "model"):
            if name not in exclude and not (path / name).exists():
                raise FileNotFoundError(
                    f"'{self.name}' cannot load from {path}: the file '{name}' is missing. "
                    "Save the pipeline again with nlp.to_disk(), or train it with spacy train."
                )

        def load_cfg(p: Path) -> None:
            try:
                cfg = srsly.read_json(p)
            except ValueError as err:
                raise ValueError(f"'{self.name}' cannot read {p}: not valid JSON ({err})") from err
            self._take_cfg(cfg)

        def read_part(put: Callable, excluded: bool, p: Path) -> None:
            if not excluded and not p.exists():
                self._require_saved_part(p.name, str(p))
            put(None if excluded or not p.exists() else p)

        def load_model(p: Path) -> None:
            try:
                # The file's bytes are a temporary, freed once decoded.
                self._load_model_file(p)
            except DamagedPipelineError:
                raise  # names its files
            except ValueError as err:
                raise ValueError(f"{err} [file: {p}]") from err

        readers = {"cfg": load_cfg}
        for key, (_, put) in self._optional_parts().items():
            readers[key] = partial(read_part, put, _stem(key) in exclude)
        readers["model"] = load_model
        util.from_disk(path, readers, [name for name in exclude if name not in map(_stem, self._optional_parts())])
        release_freed_memory()  # the files' bytes, decoded (freed_memory.py)
        return self


def _stem(key: str) -> str:
    """The name that excludes a part (spaCy's: a file name's stem, e.g. "graph" for "graph.onnx")."""
    return key.split(".")[0]


def _recorded(key: str, get: Callable[[], Optional[bytes]], saved_parts: List[str]) -> Optional[bytes]:
    """An optional part's bytes (``get()``), its key added to ``saved_parts`` where it has any."""
    data = get()
    if data is not None:
        saved_parts.append(key)
    return data


def _write_part(path: Path, data: Optional[bytes]) -> None:
    """Write an optional part's bytes; without any, remove a stale file of an earlier save."""
    if data is not None:
        path.write_bytes(data)
    elif path.exists():
        path.unlink()
