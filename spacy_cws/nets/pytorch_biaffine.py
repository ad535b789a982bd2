"""Fusion of directional views and the biaffine gap scorer (PyTorch).

Duan & Zhao (EMNLP 2020), section 3.3, eq. (7)-(9); the gates follow the
released training script (../shared/spec/seed-models.md A2).
"""
from typing import Optional

import torch
from torch import nn

N_GAP_CLASSES = 2  # 0: no boundary, 1: a word boundary


class ViewFusion(nn.Module):
    """Fuses a directional view with the centre view (eq. 7).

    "gate": g = sigmoid(W (r_dir + r_centre) + b); v = g * r_dir + (1 - g) * r_centre.
    "sum": v = r_dir + r_centre (the paper's text).
    Either input may be None (that encoder is switched off): then the other is used as is.
    """

    def __init__(self, width: int, fusion: str):
        super().__init__()
        if fusion not in ("gate", "sum"):
            raise ValueError(f"fusion must be 'gate' or 'sum', got '{fusion}'")
        self.fusion = fusion
        self.gate = nn.Linear(width, width) if fusion == "gate" else None

    def forward(self, directional: Optional[torch.Tensor], centre: Optional[torch.Tensor]) -> torch.Tensor:
        """Each (B, T, d) or None, not both None. RETURNS (B, T, d)."""
        if directional is None or centre is None:
            return directional if centre is None else centre
        if self.gate is None:
            return directional + centre
        gate = torch.sigmoid(self.gate(directional + centre))
        return gate * directional + (1 - gate) * centre


class BiaffineGapScorer(nn.Module):
    """Scores the gap between each pair of adjacent positions (eq. 8-9).

    h = forward view of the left position, t = backward view of the right one;
    h' = Drop(Linear(h)), t' = Drop(Linear(t));
    score = Bilinear(h', t') + Linear([h'; t']).
    """

    def __init__(self, width: int, dropout: float):
        super().__init__()
        self.head = nn.Linear(width, width)
        self.tail = nn.Linear(width, width)
        # The bilinear term as one weight (classes, d, d) applied with matmuls:
        # nn.Bilinear's trilinear kernel is several times slower on CPU.
        self.bilinear = nn.Parameter(torch.empty(N_GAP_CLASSES, width, width))
        nn.init.xavier_uniform_(self.bilinear)
        self.linear = nn.Linear(2 * width, N_GAP_CLASSES)
        self.dropout = nn.Dropout(dropout)

    def forward(self, forward_view: torch.Tensor, backward_view: torch.Tensor) -> torch.Tensor:
        """forward_view, backward_view: (B, T, d). RETURNS gap logits (B, T - 1, 2):
        gap g lies between positions g and g + 1."""
        head = self.dropout(self.head(forward_view[:, :-1]))
        tail = self.dropout(self.tail(backward_view[:, 1:]))
        batch, n_gaps, width = head.shape
        projected = torch.matmul(head, self.bilinear.transpose(0, 1).reshape(width, -1))  # (B, G, classes * d)
        bilinear = (projected.view(batch, n_gaps, N_GAP_CLASSES, width) * tail[:, :, None, :]).sum(-1)
        return bilinear + self.linear(torch.cat([head, tail], dim=-1))


class GapScoringHead(nn.Module):
    """Fuses the encoder streams into forward/backward views and scores the gaps."""

    def __init__(self, width: int, fusion: str, dropout: float):
        super().__init__()
        self.fuse_forward = ViewFusion(width, fusion)
        self.fuse_backward = ViewFusion(width, fusion)
        self.scorer = BiaffineGapScorer(width, dropout)

    def forward(self, streams: dict) -> torch.Tensor:
        """streams: direction name -> (B, T, d) for the encoders switched on.
        RETURNS gap logits (B, T - 1, 2)."""
        centre = streams.get("centre")
        forward_view = self.fuse_forward(streams.get("forward"), centre)
        backward_view = self.fuse_backward(streams.get("backward"), centre)
        return self.scorer(forward_view, backward_view)
