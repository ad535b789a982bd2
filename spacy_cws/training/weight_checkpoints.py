"""Weight checkpoints written during training, and their average.

spaCy's train loop keeps only model-best and model-last, and thinc's
``use_averages`` does not reach a PyTorchShim's weights in thinc 8.3 (its
optimizer keys the averages ``(shim.id, name)`` while ``use_params`` looks for
``"pytorch_{id}_{name}"``), so neither gives an average of the weights.
Checkpoint averaging (Vaswani et al. 2017, section 6.1: the last checkpoints'
weights averaged) needs the weights themselves: a ``before_update`` callback
saves every PyTorchShim's state dict each ``every`` steps, and
``python -m spacy_cws average-weights`` averages them into a pipeline.

torch is imported when weights are saved or averaged, so that spaCy can
import this module (it imports every registered function's module when a
lookup misses, e.g. for a shipped config's callback) in an install without torch.
"""
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence

from spacy.language import Language
from spacy.util import registry

from ..backends.choice import require_torch

if TYPE_CHECKING:
    import torch

CHECKPOINT_GLOB = "step-*.pt"


def checkpoint_path(directory: Path, step: int) -> Path:
    """The file of the checkpoint saved after ``step`` updates."""
    return Path(directory) / f"step-{step:06d}.pt"


def checkpoint_step(path: Path) -> int:
    """The step of a checkpoint file named by checkpoint_path."""
    return int(Path(path).stem.split("-", 1)[1])


def save_weights(nlp: Language, path: Path) -> None:
    """Save the state dict of every torch module of ``nlp`` (named by
    named_torch_modules) in one file. RAISES ImportError naming the train extra, without torch."""
    require_torch("Saving weight checkpoints (spacy-cws.save_weights.v1)")
    import torch

    from .torch_modules import named_torch_modules

    states = {
        name: {k: v.detach().clone() for k, v in module.state_dict().items()}
        for name, module in named_torch_modules(nlp)
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(states, path)


@registry.callbacks("spacy-cws.save_weights.v1")
def create_save_weights(directory: Optional[str], every: int, start: int) -> Callable[[Language, Dict], None]:
    """A ``[training] before_update`` callback saving the weights every
    ``every`` steps from step ``start`` on, as ``directory/step-NNNNNN.pt``;
    with ``directory`` None it saves nothing.

    Called before update ``step``, so the file holds the weights after
    ``step`` updates. RAISES ValueError for every < 1 or start < 0; the
    callback raises as save_weights. Needs no torch until it saves (a
    shipped config names it: ``spacy debug config`` resolves it).
    """
    if every < 1 or start < 0:
        raise ValueError(f"save_weights needs every >= 1 and start >= 0, got every={every}, start={start}")

    def save_weights_callback(nlp: Language, info: Dict) -> None:
        step = info["step"]
        if directory is not None and step >= start and step % every == 0:
            save_weights(nlp, checkpoint_path(Path(directory), step))

    return save_weights_callback


def list_checkpoints(directory: Path) -> List[Path]:
    """The checkpoint files in ``directory``, by step. RAISES FileNotFoundError if none."""
    paths = sorted(Path(directory).glob(CHECKPOINT_GLOB), key=checkpoint_step)
    if not paths:
        raise FileNotFoundError(f"no weight checkpoints ({CHECKPOINT_GLOB}) in {directory}")
    return paths


def load_checkpoint(path: Path) -> Dict[str, Dict[str, "torch.Tensor"]]:
    """The state dicts saved by save_weights, read by ``torch.load(weights_only=True)``:
    tensors in dicts only, on every torch version (before 2.6 torch.load
    unpickles any object by default, which can run any code).
    RAISES ValueError naming the file: if it holds another object."""
    import torch

    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as err:
        raise ValueError(
            f"{path} holds more than weights (objects other than tensors in dicts): it is not loaded, "
            "as unpickling them could run any code"
        ) from err


def average_weights(nlp: Language, paths: Sequence[Path]) -> None:
    """Load into ``nlp``'s torch modules the mean of the checkpoints' weights,
    in place. Integer buffers are taken from the last checkpoint. For a
    freshly loaded ``nlp`` that is then saved (the average-weights command): a
    segmenter that has already predicted keeps its inference copy of the old
    weights.

    RAISES ValueError: when a checkpoint's modules or tensor names differ from
    ``nlp``'s (a checkpoint of another pipeline), or it holds objects other
    than tensors in dicts (load_checkpoint).
    """
    if not paths:
        raise ValueError("average_weights needs at least one checkpoint")
    import torch

    from .torch_modules import named_torch_modules

    states = [load_checkpoint(path) for path in paths]
    for name, module in named_torch_modules(nlp):
        own = module.state_dict()
        for path, state in zip(paths, states):
            if name not in state or state[name].keys() != own.keys():
                raise ValueError(f"{path} does not hold the weights of {name}: is it a checkpoint of this pipeline?")
        averaged = {}
        for key, value in own.items():
            if value.is_floating_point():
                averaged[key] = torch.stack([state[name][key].float() for state in states]).mean(0)
            else:
                averaged[key] = states[-1][name][key]
        module.load_state_dict(averaged)
