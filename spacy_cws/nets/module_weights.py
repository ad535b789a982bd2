"""Loading saved weights into a torch module without holding them twice.

thinc's PyTorchWrapper loads a module's weights into a module that already
has weights of its own (random ones from its constructor) and copies the
saved ones over them: while loading, the weights exist twice, plus the bytes
they came from. Here a module whose weights are about to be loaded is built
without initial values (on torch's "meta" device, then given uninitialized
storage that is never written, so it takes no memory), and the loaded
tensors become its weights (``load_state_dict(..., assign=True)``), each cast
to the dtype the module declares (the shipped pipelines store float16),
except the LookupTables' (n-gram tables), which stay float16.
``load_model_message`` also frees the saved bytes before the weights are
built from them.
"""
from contextlib import contextmanager
from contextvars import ContextVar
from io import BytesIO
from typing import Callable, Dict, Iterator, Optional, Sequence

import numpy
import srsly
import torch
from thinc.api import Model
from thinc.util import get_torch_default_device
from torch import nn

from .lookup_table import lookup_table_weights

_WEIGHTS_FOLLOW: ContextVar[bool] = ContextVar("spacy_cws_weights_follow", default=False)


@contextmanager
def weights_follow() -> Iterator[None]:
    """Inside, ``build_module`` skips the modules' initial weights: the caller
    assigns saved weights next (load_module_weights)."""
    token = _WEIGHTS_FOLLOW.set(True)
    try:
        yield
    finally:
        _WEIGHTS_FOLLOW.reset(token)


def build_module(module_class: type, **arguments) -> nn.Module:
    """``module_class(**arguments)``; inside ``weights_follow``, with
    uninitialized weights (no random initialisation, no memory written),
    unless the module has tensors that are not saved (they would stay
    uninitialized), which are then built as usual."""
    if not _WEIGHTS_FOLLOW.get():
        return module_class(**arguments)
    with torch.device("meta"):
        module = module_class(**arguments)
    if set(dict(module.named_buffers())) - set(module.state_dict()):
        return module_class(**arguments)
    return module.to_empty(device="cpu")


# Where the rows of tables left out of saved weights come from (tables_left_out):
# a callable giving per state-dict name the table's float32 rows (n, d).
TableRows = Optional[Callable[[], Dict[str, numpy.ndarray]]]


@contextmanager
def tables_left_out(model: Model, names: Sequence[str]) -> Iterator[None]:
    """Inside, the LookupTables of ``model``'s torch modules named in
    ``names`` (state-dict names, e.g. "bigram_embedding.weight") hold an
    empty (0, d) weight, so that saving the model leaves them out: a
    pipeline whose ONNX graph holds the same rows (backends/graph_compaction.py)
    saves them once. Loading fills them back (``assign_weights``' ``tables``)."""
    swapped = []
    for node in model.walk():
        for shim in node.shims:
            module = getattr(shim, "_model", None)
            for name in lookup_table_weights(module) & set(names) if isinstance(module, nn.Module) else ():
                table = module.get_submodule(name[: -len(".weight")]) if name != "weight" else module
                swapped.append((table, table.weight))
                table.weight = nn.Parameter(table.weight.new_empty((0, table.weight.shape[1])), requires_grad=False)
    try:
        yield
    finally:
        for table, weight in swapped:
            table.weight = weight


def model_table_names(model: Model) -> set:
    """The state-dict names of the LookupTables (n-gram tables) of ``model``'s torch modules."""
    return {
        name
        for node in model.walk()
        for shim in node.shims
        if isinstance(getattr(shim, "_model", None), nn.Module)
        for name in lookup_table_weights(shim._model)
    }


def set_table_rows(model: Model, tables: Dict[str, numpy.ndarray]) -> None:
    """Make ``tables`` (state-dict name -> float32 rows (n, d)) the weights of
    the LookupTables of ``model``'s torch modules with those names (the rows
    of a compacted ONNX graph, backends/graph_compaction.py).

    RAISES ValueError: for a table whose shape differs from the rows'.
    """
    for node in model.walk():
        for shim in node.shims:
            module = getattr(shim, "_model", None)
            for name in lookup_table_weights(module) & set(tables) if isinstance(module, nn.Module) else ():
                table = module.get_submodule(name[: -len(".weight")]) if name != "weight" else module
                if tuple(table.weight.shape) != tables[name].shape:
                    raise ValueError(
                        f"the rows of {name} are {tables[name].shape}, the table {tuple(table.weight.shape)}"
                    )
                rows = torch.from_numpy(tables[name]).to(table.weight.device)
                table.weight = nn.Parameter(rows, requires_grad=table.weight.requires_grad)


def assign_weights(module: nn.Module, state: Dict[str, torch.Tensor], tables: TableRows = None) -> nn.Module:
    """Make ``state``'s tensors the weights of ``module`` (built empty or not),
    each in the dtype of the weight it replaces, except LookupTable weights
    saved in float16, which stay float16 (``state`` is changed in place to
    the cast tensors). A table saved empty (tables_left_out) takes its rows
    from ``tables``.

    RETURNS module. RAISES ValueError: if a weight of the module is missing
    from ``state`` or left without data (a tensor that is not saved), or a
    table was saved empty and ``tables`` lacks it.
    """
    current = module.state_dict(keep_vars=True)
    left_out = [name for name in lookup_table_weights(module) if name in state and state[name].shape[0] == 0]
    if left_out:
        rows = tables() if tables is not None else {}
        missing = [name for name in left_out if name not in rows]
        if missing:
            raise ValueError(
                f"the saved weights leave out the tables {missing}, and no ONNX graph of the pipeline holds them"
            )
        for name in left_out:
            state[name] = torch.from_numpy(rows[name])
    stored_half = lookup_table_weights(module)
    # Cast one tensor at a time, in place: each saved tensor is freed as its
    # cast replaces it (float16 -> float32 never holds both whole models).
    for name in list(state):
        if name in current and state[name].is_floating_point():
            if name in stored_half and state[name].dtype == torch.float16:
                continue  # a LookupTable upcasts the rows it gathers (lookup_table.py)
            state[name] = state[name].to(current[name].dtype)
    try:
        module.load_state_dict(state, assign=True)
    except RuntimeError as err:  # missing or unexpected keys, shape mismatches
        raise ValueError(f"the saved weights do not fit the model: {err}") from err
    empty = [name for name, tensor in list(module.named_parameters()) + list(module.named_buffers()) if tensor.is_meta]
    if empty:
        raise ValueError(f"the saved weights leave {', '.join(empty)} without data")
    return module


def _read_state(state_bytes: bytes, device: torch.device) -> Dict[str, torch.Tensor]:
    """The tensors of a saved state dict (torch.save bytes), on ``device``."""
    return torch.load(BytesIO(state_bytes), map_location=device, weights_only=True)


def load_module_weights(module: nn.Module, state_bytes: bytes, device: torch.device) -> nn.Module:
    """PyTorchWrapper_v3's ``deserialize_model``: thinc's default (torch.load
    of the bytes, to ``device``) with the tensors assigned, not copied.

    RAISES ValueError: as assign_weights.
    """
    return assign_weights(module, _read_state(state_bytes, device)).to(device)


def load_model_message(model: Model, msg: dict, tables: TableRows = None) -> Model:
    """``model.from_dict(msg)`` (``msg``: thinc's decoded Model.to_bytes), the
    torch weights read first, each shim's bytes freed before its tensors are
    cast. thinc's PyTorchShim.from_bytes holds the message's bytes, their
    decoded copy and the tensors at once while loading: three copies of the
    weights, the peak of loading a pipeline. Here one copy of the bytes is
    alive while the tensors are read, none while they are cast. (Written here:
    thinc's shim takes only bytes; this does what its from_bytes does, in
    another order.) Only the shims that load with ``load_module_weights``
    (the segmentation models) are read here; a node with any other shim is
    left to from_dict. ``msg`` is emptied of the shims it loaded.

    tables: the rows of tables left out of the saved weights (assign_weights).
    RETURNS model. RAISES ValueError: as assign_weights, or thinc's for a
    message that does not fit the model.
    """
    nodes = list(model.walk())
    if len(msg.get("shims", [])) == len(nodes):
        for node, saved in zip(nodes, msg["shims"]):
            ours = all(getattr(shim, "_deserialize_model", None) is load_module_weights for shim in node.shims)
            if not node.shims or len(saved) != len(node.shims) or not ours:
                continue
            for index, shim in enumerate(node.shims):
                decoded = srsly.msgpack_loads(saved[index])
                saved[index] = None  # the message's copy of the bytes, freed
                device = get_torch_default_device()  # as PyTorchShim.from_bytes
                state = _read_state(decoded.pop("state"), device)  # the decoded bytes, freed once read
                shim.cfg = decoded["config"]
                shim._model = assign_weights(shim._model, state, tables).to(device)
                shim._grad_scaler.to_(device)
                del state
            saved.clear()  # from_dict skips the shims it finds no bytes for
    return model.from_dict(msg)
