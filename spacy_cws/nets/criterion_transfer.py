"""Transfer to a new criterion (Qiu et al. 2020, section 5.3 / Figure 5).

A trained multi-criteria model learns a new segmentation standard from a few
hundred sentences by adding one criterion embedding and training only the
criterion embeddings, everything else frozen. Works on any segmentation model
whose torch module has ``criterion_embedding`` (GDTransformer, BMESTagger).
"""
import torch
from thinc.api import Model

from .wrapped_module import torch_module


def _criterion_embedding(model: Model) -> torch.nn.Embedding:
    module = torch_module(model)
    if not getattr(module, "n_criteria", 0):
        raise ValueError(
            f"The model '{model.name}' has no criterion embedding: only a multi-criteria model "
            "(multi_criteria = true when it was trained) can learn a new criterion"
        )
    return module.criterion_embedding


def add_criterion_row(model: Model) -> None:
    """Grow the criterion embedding (n_criteria, width) by one row, initialised
    to the mean of the existing rows (a neutral starting point), and the model's
    nC dim with it. The new criterion's id is the old n_criteria.

    RAISES ValueError: for a model without criteria.
    """
    old = _criterion_embedding(model)
    module = torch_module(model)
    grown = torch.nn.Embedding(old.num_embeddings + 1, old.embedding_dim)
    with torch.no_grad():
        grown.weight[:-1] = old.weight
        grown.weight[-1] = old.weight.mean(dim=0)
    module.criterion_embedding = grown
    module.n_criteria = grown.num_embeddings
    model.set_dim("nC", grown.num_embeddings, force=True)


def freeze_all_but_criteria(model: Model) -> None:
    """Only the criterion embeddings keep requires_grad: thinc's PyTorchShim
    then updates nothing else (a parameter without .grad is skipped). The rows
    of criteria absent from the training data get zero gradients, so they stay
    as they are with Adam and no weight decay (L2 = 0, as in our configs).

    RAISES ValueError: for a model without criteria.
    """
    keep = _criterion_embedding(model).weight
    for parameter in torch_module(model).parameters():
        parameter.requires_grad_(parameter is keep)
