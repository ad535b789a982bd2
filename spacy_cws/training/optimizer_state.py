"""A thinc optimizer's state under names that survive a restart.

thinc's Optimizer keys each parameter's Adam moments by ``(id, name)``, the id
of a thinc node or of a PyTorchShim. Ids are handed out per process, so a
pipeline loaded again gets new ones and the saved moments would match
nothing. Here every key is renamed after where the parameter sits: the
component, the node's place in ``model.walk()``, the shim's place in the node
and the parameter's name, which is the same for a pipeline and its saved
copy. thinc has no way to save an optimizer, hence this module.
"""
from typing import Dict, Hashable, Tuple

from spacy.language import Language
from thinc.api import Model, Optimizer

OptimizerKey = Tuple[int, str]
# The optimizer's per-parameter tables, each {key: value}.
PARAMETER_TABLES = ("mom1", "mom2", "nr_update", "last_seen")


def stable_parameter_names(nlp: Language) -> Dict[OptimizerKey, str]:
    """The optimizer key of every trainable parameter of ``nlp``'s components,
    mapped to a name that does not change when the pipeline is saved and loaded.

    A thinc parameter's key is ``(node.id, name)``, a torch parameter's
    ``(shim.id, name)`` (thinc's PyTorchShim.finish_update)."""
    names: Dict[OptimizerKey, str] = {}
    for component_name, component in nlp.components:
        model = getattr(component, "model", None)
        if not isinstance(model, Model):
            continue
        for i, node in enumerate(model.walk()):
            for param in node.param_names:
                names[(node.id, param)] = f"{component_name}/{i}/{param}"
            for j, shim in enumerate(node.shims):
                module = getattr(shim, "_model", None)
                if module is None or not hasattr(module, "named_parameters"):
                    continue
                for param, _ in module.named_parameters():
                    names[(shim.id, param)] = f"{component_name}/{i}/shim{j}/{param}"
    return names


def optimizer_state(optimizer: Optimizer, nlp: Language, steps: int) -> Dict[str, Hashable]:
    """The state of ``optimizer`` after ``steps`` steps of training ``nlp``:
    its moments, update counts and weight averages under stable names, and
    the number of schedule steps taken.

    RAISES ValueError: if the optimizer holds a parameter ``nlp`` does not have."""
    names = stable_parameter_names(nlp)
    state = {"schedule_steps": steps}
    tables = {table: getattr(optimizer, table) for table in PARAMETER_TABLES}
    if optimizer.averages is not None:
        tables["averages"] = optimizer.averages
    for table, values in tables.items():
        unknown = [key for key in values if key not in names]
        if unknown:
            raise ValueError(f"The optimizer's {table} holds parameters the pipeline does not have: {unknown[:3]}")
        state[table] = {names[key]: value for key, value in values.items()}
    return state


def restore_optimizer_state(optimizer: Optimizer, nlp: Language, state: Dict) -> None:
    """Give a new ``optimizer`` (made from the same config) the ``state``
    that optimizer_state saved for a copy of ``nlp``, and advance its
    learning-rate and other schedules as many steps as the saved one took.

    RAISES ValueError: if the state names parameters ``nlp`` does not have
    (it was saved for another pipeline or config)."""
    keys = {name: key for key, name in stable_parameter_names(nlp).items()}
    for table in (*PARAMETER_TABLES, "averages"):
        if table not in state:
            continue
        unknown = [name for name in state[table] if name not in keys]
        if unknown:
            raise ValueError(
                f"The saved optimizer state names parameters this pipeline does not have: {unknown[:3]}; "
                "it was saved for another pipeline or config"
            )
        target = getattr(optimizer, table)
        if target is None:  # averages of an optimizer made with use_averages = false
            continue
        target.clear()
        target.update({keys[name]: value for name, value in state[table].items()})
    for _ in range(state["schedule_steps"]):
        optimizer.step_schedules()
