"""A mis-mounted corpora folder fails the CI run (SPACY_CWS_REQUIRE_DATA=1, set
by .ci/run) instead of turning the tests that need it into skips."""
import os
import subprocess
import sys

import pytest

from .conftest import REPO_ROOT

# A quick test that needs the corpora.
NEEDS_DATA = "tests/scoring/test_sighan_scorer.py::test_aligned_real_corpus_scores_without_error"


def _run_with_data_folder(folder, require):
    env = {**os.environ, "SPACY_CWS_DATA": str(folder), "SPACY_CWS_REQUIRE_DATA": require}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", NEEDS_DATA]
    return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("require, exit_code, outcome", [("1", 1, "1 error"), ("", 0, "1 skipped")])
def test_missing_corpora_fail_only_when_required(tmp_path, require, exit_code, outcome):
    result = _run_with_data_folder(tmp_path / "empty", require)
    assert result.returncode == exit_code, result.stdout
    assert outcome in result.stdout
