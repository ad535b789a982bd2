"""How ``Segmenter.export_onnx`` writes a graph: the storage of its n-gram
tables and the arithmetic of its products by weights (importable without
torch or onnx, for the command-line options).

tables: "int8" (a scale per row; graph_compaction.py), "int4" (4-bit codes
    with a scale and zero point per block of 32 values: 41 bytes a 64-wide
    row against int8's 68) or "float16" (as the 0.4.x pipelines saved them).
matmuls: "float32" (the torch backend's words exactly, whatever the batch),
    "int8" (ONNX Runtime's dynamic int8: an activation's scale is its
    batch's, so a few lines in a hundred get other words in another batch;
    matmul_quantization.py) or "int8-static" (ranges measured once on
    calibration text, so the words do not depend on the batch;
    static_quantization.py).
"""
ONNX_TABLES = ("int8", "int4", "float16")
ONNX_MATMULS = ("float32", "int8", "int8-static")
DEFAULT_TABLES = "int8"
DEFAULT_MATMULS = "float32"


def check_export_options(tables: str, matmuls: str) -> None:
    """RAISES ValueError naming the known values, for another ``tables`` or ``matmuls``."""
    if tables not in ONNX_TABLES:
        raise ValueError(f"The graph's n-gram tables must be one of {', '.join(ONNX_TABLES)}, got '{tables}'")
    if matmuls not in ONNX_MATMULS:
        raise ValueError(f"The graph's products by weights must be one of {', '.join(ONNX_MATMULS)}, got '{matmuls}'")
