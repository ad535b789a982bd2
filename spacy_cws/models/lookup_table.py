"""Embedding tables that stay in float16 when a pipeline saved them so.

The n-gram and word tables are most of a segmentation model's weights (the
bigram table alone is 295,144 x 64 in zh_cws_gd_sm, 75 MB in float32), and
the shipped pipelines save every weight in float16. Upcasting a table to
float32 when it loads doubles its memory for nothing: a lookup reads a few
rows, and upcasting the rows it read gives exactly the values an upcast
table would. So a LookupTable loaded from float16 weights (module_weights.py
keeps them as saved) is held in float16 and upcasts the rows it gathers.
float16 is never a compute dtype here (models/inference.py: float32 or
bfloat16), so a float16 table is always a stored one.

Training needs float32 weights (thinc's optimizers update them in place):
switching a LookupTable to train mode upcasts a float16 table first.
"""
import torch
from torch import nn


class LookupTable(nn.Embedding):
    """nn.Embedding (same arguments, same saved state) whose weight may be
    held in float16.

    forward: int64 ids (...) -> (..., embedding_dim) rows, float32 when the
    table is float16, else in the table's dtype (float32 when training,
    bfloat16 in a bfloat16 inference copy).
    """

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        rows = super().forward(ids)
        return rows.float() if rows.dtype == torch.float16 else rows

    def train(self, mode: bool = True) -> "LookupTable":
        """nn.Module.train; entering train mode upcasts a float16 table to
        float32 (a new Parameter with the same requires_grad)."""
        if mode and self.weight.dtype == torch.float16:
            self.weight = nn.Parameter(self.weight.detach().float(), requires_grad=self.weight.requires_grad)
        return super().train(mode)


def lookup_table_weights(module: nn.Module) -> set:
    """The state-dict names of the weights of ``module``'s LookupTables."""
    return {f"{name}.weight" if name else "weight" for name, sub in module.named_modules() if isinstance(sub, LookupTable)}
