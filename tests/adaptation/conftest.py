"""Domain text for the adaptation tests: the ZX novel's training split, its gold spaces removed; and the
DL novel (../shared/data/adapt/dl: PKU-like words), which no shipped pipeline has seen, not even as raw
text (the 0.7.0 pipelines learned from ZX's raw training text)."""
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
def dl_gold(shared_data):
    """The DL novel's 997 gold sentences (words separated by spaces), each its words."""
    text = (shared_data / "adapt" / "dl" / "dl_test_gold.txt").read_text(encoding="utf-8-sig")
    return [line.split() for line in text.splitlines() if line.strip()]
