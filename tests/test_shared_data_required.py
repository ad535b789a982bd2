"""A mis-mounted corpora folder fails the CI run (SPACY_CWS_REQUIRE_DATA=1, set
by .ci/run) instead of turning the tests that need it into skips."""
import pytest

from .conftest import SHARED_DATA, check_shared_data


@pytest.mark.parametrize("required, outcome", [(True, pytest.fail.Exception), (False, pytest.skip.Exception)])
def test_missing_or_empty_corpora_folder(tmp_path, required, outcome):
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "absent", tmp_path / "empty"):
        with pytest.raises(outcome, match="MANIFEST.md"):
            check_shared_data(folder, required)


def test_mounted_corpora_folder_is_returned(shared_data):
    assert check_shared_data(SHARED_DATA, required=True) == shared_data
