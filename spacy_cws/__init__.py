"""spacy-cws: neural Chinese word segmentation for spaCy 3."""
from importlib import metadata

from . import criterion_extension  # noqa: F401  (registers doc._.cws_criterion)

__version__ = metadata.version("spacy-cws")  # setup.cfg's, as installed
