"""spacy-cws: neural Chinese word segmentation for spaCy 3."""
from spacy.tokens import Doc

__version__ = "0.1.0"

# The corpus (segmentation criterion) a Doc was drawn from, e.g. "ctb6" or
# "pku". Set by corpus conversion and kept in DocBin user data, so that
# multi-criteria training needs no reconversion.
if not Doc.has_extension("criterion"):
    Doc.set_extension("criterion", default=None)
