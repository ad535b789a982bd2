"""Saved binary parts of a component (msgpack via srsly): their format check,
and numpy arrays kept as raw bytes in them (read in place, never unpickled)."""
import numpy
import srsly


def saved_message(data: bytes, data_format: str, what: str, kind: str) -> dict:
    """The msgpack map saved with ``{"format": data_format, ...}``.

    what: the part, for the messages (e.g. "featurizer file"). kind: what it
        must be (e.g. "featurizer").
    RAISES ValueError: for bytes that are not msgpack, or a map of another format.
    """
    try:
        msg = srsly.msgpack_loads(data)
    except Exception as err:  # msgpack's own exception types
        raise ValueError(f"the {what} is corrupt: not msgpack ({type(err).__name__}: {err})") from err
    if not isinstance(msg, dict) or msg.get("format") != data_format:
        raise ValueError(f"the {what} is not a spacy-cws {kind} of format '{data_format}'")
    return msg


def array_message(array: numpy.ndarray) -> dict:
    """An array as msgpack can keep it: its dtype, shape and raw bytes."""
    return {"dtype": array.dtype.str, "shape": list(array.shape), "data": array.tobytes()}


def message_array(saved: dict) -> numpy.ndarray:
    """The array of ``array_message``: a read-only view of its bytes."""
    return numpy.frombuffer(saved["data"], dtype=numpy.dtype(saved["dtype"])).reshape(saved["shape"])
