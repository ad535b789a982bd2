"""doc._.cws_criterion, and the deprecated doc._.criterion alias."""
import pytest
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

import spacy_cws  # noqa: F401  (registers the extensions)


def test_new_name_needs_no_warning(recwarn):
    doc = Doc(Vocab(), words=["数据"])
    assert doc._.cws_criterion is None
    doc._.cws_criterion = "pku"
    assert doc._.cws_criterion == "pku"
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_old_name_is_a_deprecated_alias():
    doc = Doc(Vocab(), words=["数据"])
    with pytest.warns(DeprecationWarning, match="cws_criterion"):
        doc._.criterion = "msr"
    assert doc._.cws_criterion == "msr"
    doc._.cws_criterion = "pku"
    with pytest.warns(DeprecationWarning, match="cws_criterion"):
        assert doc._.criterion == "pku"


def test_docbins_saved_under_the_old_name_keep_their_criterion():
    """A DocBin converted by 0.2.0 stored the criterion under the old name."""
    vocab = Vocab()
    doc = Doc(vocab, words=["新华社", "北京"])
    doc.user_data[("._.", "criterion", None, None)] = "ctb6"
    loaded = DocBin(store_user_data=True).from_bytes(DocBin(docs=[doc], store_user_data=True).to_bytes())
    (loaded,) = loaded.get_docs(vocab)
    assert loaded._.cws_criterion == "ctb6"
    loaded._.cws_criterion = "pku"
    assert ("._.", "criterion", None, None) not in loaded.user_data
    assert loaded._.cws_criterion == "pku"
