"""spacy-cws: neural Chinese word segmentation for spaCy 3."""
from . import criterion_extension  # noqa: F401  (registers doc._.cws_criterion)

__version__ = "0.1.0"
