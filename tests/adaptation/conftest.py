"""Raw domain text for the adaptation tests: the ZX novel's training split, its gold spaces removed."""
import pytest


def zx_raw_lines(shared_data, n_lines):
    """The first ``n_lines`` sentences of ZX training, as raw text (no spaces, no POS)."""
    lines = []
    with (shared_data / "zx" / "train.zhuxian.wordpos").open(encoding="utf-8") as stream:
        for line in stream:
            words = [token.rsplit("_", 1)[0] for token in line.split()]
            if words:
                lines.append("".join(words))
            if len(lines) == n_lines:
                break
    return lines


@pytest.fixture(scope="package")
def zx_raw(shared_data):
    """About 30,000 characters of ZX raw text (600 sentences)."""
    return zx_raw_lines(shared_data, 600)


@pytest.fixture(scope="package")
def zx_gold_words(shared_data):
    """The word types of ZX's whole gold training split."""
    words = set()
    with (shared_data / "zx" / "train.zhuxian.wordpos").open(encoding="utf-8") as stream:
        for line in stream:
            words.update(token.rsplit("_", 1)[0] for token in line.split())
    return words
