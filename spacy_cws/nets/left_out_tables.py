"""Whether a segmenter's saved weights leave tables out for its ONNX graph, told without torch.

A pipeline saved with a graph that holds n-gram tables as int8 rows or 4-bit
blocks saves those tables empty, (0, d), in its weights (module_weights.py
tables_left_out): the weights then load only with that graph. Every other
tensor of a segmentation model holds data, so an empty tensor in the saved
weights is such a table. thinc saves a torch module as torch.save's zip
archive, one entry per tensor's storage under ``data/``: an empty tensor's
entry holds no bytes, which the zip's listing shows without reading any.
"""
import zipfile
from io import BytesIO

import srsly


def leaves_out_tables(data: bytes) -> bool:
    """Whether the saved weights ``data`` (thinc's Model.to_bytes of a
    segmentation model) hold an empty tensor: tables left out for an ONNX
    graph. False for bytes that are not such weights (their loader says why)."""
    try:
        shims = [shim for node in srsly.msgpack_loads(data).get("shims", []) for shim in node]
        states = [srsly.msgpack_loads(shim)["state"] for shim in shims]
    except Exception:  # msgpack's own exception types: not saved weights
        return False
    for state in states:
        if isinstance(state, bytes) and zipfile.is_zipfile(BytesIO(state)):
            with zipfile.ZipFile(BytesIO(state)) as archive:
                if any("/data/" in entry.filename and entry.file_size == 0 for entry in archive.infolist()):
                    return True
    return False
