"""The precisions a torch inference copy runs in, by name (nets/inference.py), without torch."""

# "bfloat16": matmuls in oneDNN's AMX / AVX512-BF16 kernels (float32
# accumulation); the scores are returned as float32.
PRECISION_NAMES = ("float32", "bfloat16")
# "bfloat16" where this CPU multiplies bfloat16 natively, else "float32":
# elsewhere oneDNN emulates bfloat16, far slower than float32
# (docs/experiments/inference.md, precision).
AUTO_PRECISION = "auto"


def check_precision(precision: str) -> None:
    """RAISES ValueError naming the known precisions, for another name."""
    known = sorted(PRECISION_NAMES) + [AUTO_PRECISION]
    if precision not in known:
        raise ValueError(f"precision must be one of {known}, got '{precision}'")
