"""Which backend runs a segmenter's network at inference: the ``inference_backend`` setting.

"torch" runs the frozen inference copy of the model (nets/inference.py);
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
# What installs ONNX Runtime with spacy-cws (a requirement; it is missing only
# from an install that left out dependencies).
ONNXRUNTIME_INSTALL = "pip install onnxruntime"
# What installs torch with spacy-cws (setup.cfg's train extra).
TRAIN_INSTALL = 'pip install "spacy-cws[train]"'


def require_torch(purpose: str) -> None:
    """RAISES ImportError naming the train extra, where torch is not installed.

    purpose: what needs it, e.g. "Training a segmenter".
    """
    try:
        import torch  # noqa: F401  (what the caller goes on to use)
    except ImportError as err:
        raise ImportError(f"{purpose} needs torch, which a user's install leaves out: {TRAIN_INSTALL}") from err


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
        raise ImportError(
            f"'{component}' has inference_backend = \"onnxruntime\": install it with {ONNXRUNTIME_INSTALL}"
        )
    return ONNXRUNTIME
