"""``doc._.cws_criterion``: the corpus (segmentation criterion) a Doc follows.

Set by corpus conversion (e.g. "ctb6" or "pku") and kept in the Doc's user
data, so DocBins saved with ``store_user_data=True`` keep it and
multi-criteria training needs no reconversion; at inference a Doc's own
criterion wins over the segmenter's default. Before 0.3.0 the extension was
``doc._.criterion``: that name still reads and writes the same value, with a
DeprecationWarning, and DocBins saved under the old name are read as they are.
"""
import warnings
from typing import Optional

from spacy.tokens import Doc

ATTR = "cws_criterion"
DEPRECATED_ATTR = "criterion"
# Where spaCy's underscore stores a Doc extension's value in doc.user_data.
_KEY = ("._.", ATTR, None, None)
_DEPRECATED_KEY = ("._.", DEPRECATED_ATTR, None, None)


def get_criterion(doc: Doc) -> Optional[str]:
    """The Doc's criterion: its own, or one stored under the old name; None if neither."""
    if _KEY in doc.user_data:
        return doc.user_data[_KEY]
    return doc.user_data.get(_DEPRECATED_KEY)


def set_criterion(doc: Doc, criterion: Optional[str]) -> None:
    """Store ``criterion`` under the new name (dropping any value under the old one)."""
    doc.user_data[_KEY] = criterion
    doc.user_data.pop(_DEPRECATED_KEY, None)


def _warn() -> None:
    warnings.warn(
        f"doc._.{DEPRECATED_ATTR} is deprecated and will be removed in spacy-cws 0.4.0: use doc._.{ATTR}",
        DeprecationWarning,
        stacklevel=3,
    )


def _get_deprecated(doc: Doc) -> Optional[str]:
    _warn()
    return get_criterion(doc)


def _set_deprecated(doc: Doc, criterion: Optional[str]) -> None:
    _warn()
    set_criterion(doc, criterion)


if not Doc.has_extension(ATTR):
    Doc.set_extension(ATTR, getter=get_criterion, setter=set_criterion)
if not Doc.has_extension(DEPRECATED_ATTR):
    Doc.set_extension(DEPRECATED_ATTR, getter=_get_deprecated, setter=_set_deprecated)
