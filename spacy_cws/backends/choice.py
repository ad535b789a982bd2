"""Which backend runs a segmenter's network at inference: the ``inference_backend`` setting.

"torch" runs the frozen inference copy of the model (models/inference.py);
"onnxruntime" runs the pipeline's exported ONNX graph (onnx_network.py);
"auto" runs the graph where the pipeline holds one and ONNX Runtime is
installed, and torch otherwise. Training always runs torch. Importing this
needs neither torch nor ONNX Runtime.
"""
import importlib.util

AUTO = "auto"
ONNXRUNTIME = "onnxruntime"
TORCH = "torch"
INFERENCE_BACKENDS = (AUTO, ONNXRUNTIME, TORCH)
# What installs ONNX Runtime with spacy-cws (setup.cfg's extras).
ONNXRUNTIME_INSTALL = 'pip install "spacy-cws[onnxruntime]"'


def check_backend(name: str) -> None:
    """RAISES ValueError naming the known backends, for another name."""
    if name not in INFERENCE_BACKENDS:
        raise ValueError(f"inference_backend must be one of {list(INFERENCE_BACKENDS)}, got '{name}'")


def onnxruntime_installed() -> bool:
    """Whether ``import onnxruntime`` would find the package (without importing it)."""
    return importlib.util.find_spec(ONNXRUNTIME) is not None


def chosen_backend(setting: str, has_graph: bool, component: str = "gd_segmenter") -> str:
    """The backend that runs the network: "onnxruntime" or "torch".

    setting: the ``inference_backend`` setting. has_graph: whether the
    pipeline holds an ONNX graph of its network.
    RAISES ValueError: for an unknown setting, or "onnxruntime" without a
        graph; ImportError naming the extra to install, for "onnxruntime"
        without ONNX Runtime.
    """
    check_backend(setting)
    if setting == TORCH:
        return TORCH
    if setting == AUTO:
        return ONNXRUNTIME if has_graph and onnxruntime_installed() else TORCH
    if not has_graph:
        raise ValueError(
            f"'{component}' has inference_backend = \"onnxruntime\" but holds no ONNX graph: export one with "
            f"nlp.get_pipe(\"{component}\").export_onnx() and save the pipeline, or set inference_backend = \"auto\""
        )
    if not onnxruntime_installed():
        raise ImportError(f"'{component}' has inference_backend = \"onnxruntime\": install it with {ONNXRUNTIME_INSTALL}")
    return ONNXRUNTIME
