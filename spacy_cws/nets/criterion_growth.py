"""Growing a trained GD-Transformer for one more criterion, leaving what the others compute as it was.

- ``add_first_criteria``: a single-criterion model gets criterion
  embeddings, all zeros. The embedding is added to every position's input
  (pytorch_gd_transformer.py), so each row computes exactly what the model
  computed before.
- ``add_criterion_head``: a criterion gets gap scoring heads of its own
  (the final head, and with HiRED the early one), copies of the shared
  ones; the other criteria keep theirs.
- ``add_criterion_layer``: a criterion also runs the top layer of every
  encoder as a copy of its own; the other criteria keep the shared one.

With the shared weights frozen, training the new criterion's embedding row,
heads and top layers then changes nothing that another criterion computes
(adaptation/few_shot.py).
"""
import copy

import torch
from thinc.api import Model

from .wrapped_module import torch_module

# The parameter names (prefixes) of what only criteria with their own heads or top layers use,
# and of the criterion embedding: what learns a new criterion.
CRITERION_PARAMETERS = ("criterion_embedding.", "criterion_heads.", "criterion_early_heads.", "criterion_layers.")


def add_first_criteria(model: Model, n_criteria: int) -> None:
    """Give a single-criterion GD-Transformer ``n_criteria`` criterion
    embeddings, all zeros, and set the model's nC dim.

    RAISES ValueError: if the model has criteria already, is not a gap model
        (a B/M/E/S tagger prepends its criterion as a token, so any embedding
        would change what it computes), or n_criteria < 1.
    """
    module = _gap_module(model)
    if module.n_criteria:
        raise ValueError(f"The model '{model.name}' has criteria already: add one with add_criterion_row")
    if n_criteria < 1:
        raise ValueError(f"n_criteria must be >= 1, got {n_criteria}")
    module.criterion_embedding = torch.nn.Embedding(n_criteria, module.embedding.embedding_dim)
    with torch.no_grad():
        module.criterion_embedding.weight.zero_()
    module.n_criteria = n_criteria
    model.set_dim("nC", n_criteria, force=True)


def add_criterion_head(model: Model, criterion: int) -> None:
    """Give the criterion of id ``criterion`` gap scoring heads of its own:
    copies of the shared heads (so it segments as before until they are
    trained), recorded in the model's settings (``criterion_heads``), which
    build the module when the pipeline loads.

    RAISES ValueError: for a model that is not a gap model, or a criterion
        it does not have or that has its own heads already.
    """
    module = _gap_module(model)
    if not 0 <= criterion < module.n_criteria or criterion in module.criterion_head_ids:
        raise ValueError(f"'{model.name}' cannot give criterion {criterion} heads of its own: unknown, or it has them")
    module.criterion_heads.append(copy.deepcopy(module.head))
    if module.hired:
        module.criterion_early_heads.append(copy.deepcopy(module.early_head))
    module.criterion_head_ids.append(criterion)
    model.attrs["settings"]["criterion_heads"] = list(module.criterion_head_ids)


def add_criterion_layer(model: Model, criterion: int) -> None:
    """Give the criterion of id ``criterion`` a copy of its own of the top
    layer of every encoder (so it computes as before until trained),
    recorded in the model's settings (``criterion_layers``), which build the
    module when the pipeline loads.

    RAISES ValueError: for a model that is not a gap model, or a criterion
        it does not have or that has its own top layer already.
    """
    module = _gap_module(model)
    if not 0 <= criterion < module.n_criteria or criterion in module.criterion_layer_ids:
        raise ValueError(
            f"'{model.name}' cannot give criterion {criterion} a top layer of its own: unknown, or it has one"
        )
    module.criterion_layers.append(
        torch.nn.ModuleDict({key: copy.deepcopy(encoder.layers[-1]) for key, encoder in module.encoders.items()})
    )
    module.criterion_layer_ids.append(criterion)
    model.attrs["settings"]["criterion_layers"] = list(module.criterion_layer_ids)


def _gap_module(model: Model):
    """The torch module of a GD-Transformer model. RAISES ValueError for a B/M/E/S tagger."""
    if model.attrs.get("labels", "gaps") != "gaps":
        raise ValueError(f"The model '{model.name}' tags B/M/E/S: only a GD-Transformer can learn a criterion this way")
    return torch_module(model)
