"""Saving and loading a trainable component whose state is its ``cfg`` and its ``model``."""
from pathlib import Path
from typing import Iterable

import srsly
from spacy import util


class CfgAndModelSerialization:
    """to_bytes / from_bytes / to_disk / from_disk for a TrainablePipe that
    keeps a JSON ``cfg`` and a thinc ``model`` (spaCy's util.to_disk with a
    dict of serializers, as spacy/pipeline/*.py do).

    The component defines ``_load_cfg(cfg: dict)`` (take what was learned)
    and ``_load_model_bytes(data: bytes)`` (build the model if needed, then
    load; ValueError for weights it cannot use).
    RAISES FileNotFoundError naming a missing part; ValueError naming the file
        for a cfg that is not JSON or weights that do not load.
    """

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        serialize = {"cfg": lambda: srsly.json_dumps(self.cfg), "model": lambda: self.model.to_bytes()}
        return util.to_bytes(serialize, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()):
        deserialize = {"cfg": lambda b: self._load_cfg(srsly.json_loads(b)), "model": self._load_model_bytes}
        util.from_bytes(bytes_data, deserialize, exclude)
        return self

    def to_disk(self, path, *, exclude: Iterable[str] = tuple()) -> None:
        serialize = {"cfg": lambda p: srsly.write_json(p, self.cfg), "model": lambda p: self.model.to_disk(p)}
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
            self._load_cfg(cfg)

        def load_model(p: Path) -> None:
            try:
                self._load_model_bytes(p.read_bytes())
            except ValueError as err:
                raise ValueError(f"{err} [file: {p}]") from err

        util.from_disk(path, {"cfg": load_cfg, "model": load_model}, exclude)
        return self
