"""Multi-source word-aligned attention (Li et al. 2020) as the ``mwa_enricher``
component: character encoder, segmentation sources, the attention layer and
the listener that shares its output with downstream components."""
from .sources import SEGMENTATIONS_ATTR, SegmentationError, add_segmentations, align_words, get_segmentations, sources
from .listener import VECTORS_ATTR, MWAListener
from .component import MWAEnricher, make_mwa_enricher

__all__ = [
    "SEGMENTATIONS_ATTR",
    "VECTORS_ATTR",
    "MWAEnricher",
    "MWAListener",
    "SegmentationError",
    "add_segmentations",
    "align_words",
    "get_segmentations",
    "make_mwa_enricher",
    "sources",
]
