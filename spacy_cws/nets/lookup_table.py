"""Embedding tables that stay in float16 when a pipeline saved them so.

The n-gram and word tables are most of a segmentation model's weights, and
the shipped pipelines save every weight in float16. Upcasting a table to
float32 when it loads doubles its memory for nothing: a lookup reads a few
rows, and upcasting the rows it read gives exactly the values an upcast
table would. So a LookupTable loaded from float16 weights (module_weights.py
keeps them as saved) is held in float16 and upcasts the rows it gathers.
float16 is never a compute dtype here (nets/inference.py: float32 or
bfloat16), so a float16 table is always a stored one. An inference copy
in bfloat16 keeps the float16 table too and casts the rows it gathers
(``cast_keeping_stored_tables``).

Training needs float32 weights (thinc's optimizers update them in place):
switching a LookupTable to train mode upcasts a float16 table first.
"""
import torch
from torch import nn


class LookupTable(nn.Embedding):
    """nn.Embedding (same arguments, same saved state) whose weight may be
    held in float16.

    rows_dtype: the dtype of the rows a float16 table gives: float32, or the
        compute dtype of an inference copy (``cast_keeping_stored_tables``).
    forward: int64 ids (...) -> (..., embedding_dim) rows, in ``rows_dtype``
    when the table is float16, else in the table's dtype.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rows_dtype = torch.float32

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        rows = super().forward(ids)
        return rows.to(self.rows_dtype) if rows.dtype == torch.float16 else rows

    def train(self, mode: bool = True) -> "LookupTable":
        """nn.Module.train; entering train mode upcasts a float16 table to
        float32 (a new Parameter with the same requires_grad)."""
        if mode and self.weight.dtype == torch.float16:
            self.weight = nn.Parameter(self.weight.detach().float(), requires_grad=self.weight.requires_grad)
        return super().train(mode)


def lookup_table_weights(module: nn.Module) -> set:
    """The state-dict names of the weights of ``module``'s LookupTables."""
    return {
        f"{name}.weight" if name else "weight" for name, sub in module.named_modules() if isinstance(sub, LookupTable)
    }


def cast_keeping_stored_tables(module: nn.Module, dtype: torch.dtype) -> nn.Module:
    """``module.to(dtype)``, except its float16 LookupTables: they keep their
    float16 weight (the same tensor, not a cast copy) and give rows in
    ``dtype``. A float16 value cast to bfloat16 goes through float32 either
    way, so the rows equal those of a table cast to ``dtype``.

    RETURNS module.
    """
    stored = [
        (table, table.weight)
        for table in module.modules()
        if isinstance(table, LookupTable) and table.weight.dtype == torch.float16
    ]
    for table, _ in stored:
        del table.weight  # out of module.to's reach
    module.to(dtype)
    for table, weight in stored:
        table.weight = weight
        table.rows_dtype = dtype
    return module


def keep_first_rows(table: nn.Embedding, n_rows: int) -> None:
    """Shrink ``table`` in place to its first ``n_rows`` rows (its dtype and
    requires_grad kept): ids from n_rows on must no longer be looked up.

    RAISES ValueError: if n_rows is below 1 or above the table's rows.
    """
    if not 1 <= n_rows <= table.num_embeddings:
        raise ValueError(f"A table of {table.num_embeddings} rows cannot keep {n_rows}")
    weight = table.weight
    table.weight = nn.Parameter(weight.detach()[:n_rows].clone(), requires_grad=weight.requires_grad)
    table.num_embeddings = n_rows
