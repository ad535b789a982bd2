"""Shared fixtures and the ``--runslow`` switch (spaCy's convention)."""
import functools
import importlib.util
import os
from pathlib import Path
from typing import Optional

import pytest
import spacy
from hypothesis import HealthCheck, settings

from .segmentation_data import COARSE, FINE, MODEL, blank_pipeline, criterion_pipeline, make_examples, overfit

REPO_ROOT = Path(__file__).resolve().parents[1]
# The corpora sit beside the checkout (../shared/data); SPACY_CWS_DATA overrides.
SHARED_DATA = Path(os.environ.get("SPACY_CWS_DATA", REPO_ROOT.parent / "shared" / "data"))
# With SPACY_CWS_REQUIRE_DATA=1 (set by .ci/run) tests needing the corpora fail
# instead of skipping when the folder is missing or mis-mounted (no MANIFEST.md).
REQUIRE_DATA = os.environ.get("SPACY_CWS_REQUIRE_DATA") == "1"


# Property tests (hypothesis): 300 examples each by default (README's test
# command, CI's first pass) and 3,000 with --runslow (CI's second pass,
# `-m "slow or hypothesis"`). Not 100,000: on 2 quiet cores the 17 property
# tests took about 100 s at 1,000 examples, and 11 of them 14.5 minutes at
# 10,000 (hypothesis draws larger texts as it goes, and the tests that run
# a model dominate), so 100,000 would take hours and 10,000 would take most of
# CI's 45 minutes.
# No deadline: the model's speed depends on the shared cores.
PROPERTY_EXAMPLES = {"spacy-cws": 300, "spacy-cws-slow": 3_000}
for _profile, _examples in PROPERTY_EXAMPLES.items():
    settings.register_profile(
        _profile, max_examples=_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")


def pytest_configure(config):
    settings.load_profile("spacy-cws-slow" if config.getoption("--runslow") else "spacy-cws")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: pass --runslow to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of real corpora (../shared/data); tests needing it skip when
    absent, or fail if SPACY_CWS_REQUIRE_DATA=1."""
    return check_shared_data(SHARED_DATA, REQUIRE_DATA)


def check_shared_data(folder: Path, required: bool) -> Path:
    """``folder`` if it holds the corpora (its MANIFEST.md); else fail the
    test (``required``) or skip it."""
    if not (folder / "MANIFEST.md").is_file():
        message = f"corpora folder not found (no {folder / 'MANIFEST.md'})"
        if required:
            pytest.fail(f"{message}; SPACY_CWS_REQUIRE_DATA=1 requires it")
        pytest.skip(message)
    return folder


@pytest.fixture(scope="session")
def prepared_ctb6(shared_data, tmp_path_factory) -> Path:
    """``python -m spacy_cws prepare ctb6`` on the real corpus: DocBins, training
    words, test input and gold, as ``evaluate`` reads them."""
    from typer.testing import CliRunner

    from spacy_cws.cli import app

    folder = tmp_path_factory.mktemp("prepared") / "ctb6"
    result = CliRunner().invoke(app, ["prepare", "ctb6", str(shared_data), str(folder)])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="session")
def trained_nlp():
    """A tiny gd_segmenter pipeline overfitted once per test run on SENTENCES."""
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256})
    return overfit(nlp, make_examples(nlp), updates=120, max_loss=0.01)


@pytest.fixture(scope="session")
def two_criteria_nlp():
    """A tiny multi-criteria pipeline (criteria "coarse" and "fine", default
    "coarse") overfitted once per test run on the same sentences under both."""
    nlp = criterion_pipeline()
    examples = make_examples(nlp, COARSE, "coarse") + make_examples(nlp, FINE, "fine")
    return overfit(nlp, examples, updates=150, max_loss=0.02)


@functools.cache
def shipped_pipeline(name: str, precision: Optional[str] = None):
    """The installed shipped pipeline ``name`` (zh_cws_gd or zh_cws_gd_sm),
    loaded once per test run for each ``precision`` of its torch inference
    copy (set_inference_precision; None: as its config says).
    Shared: a test that changes a pipeline (add_words, set_default_criterion,
    ...) loads its own with spacy.load. Skips when the package is missing."""
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed: README's install command installs it from models/")
    nlp = spacy.load(name)
    if precision is not None:
        nlp.get_pipe("gd_segmenter").set_inference_precision(precision)
    return nlp


@pytest.fixture(scope="session")
def zh_cws_gd_nlp():
    """zh_cws_gd as shipped, shared by the tests that only read it."""
    return shipped_pipeline("zh_cws_gd")


@pytest.fixture(scope="session")
def zh_cws_gd_sm_nlp():
    """zh_cws_gd_sm as shipped, shared by the tests that only read it."""
    return shipped_pipeline("zh_cws_gd_sm")
