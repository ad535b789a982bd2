"""int8 products that give the same words on every x86 CPU: unsigned weights where the CPU has no VNNI.

The int8 graphs (matmul_quantization.py, static_quantization.py) multiply
uint8 activations by int8 weights ("U8S8"). With VNNI (AVX512-VNNI or
AVX-VNNI), ONNX Runtime's kernel sums the byte products exactly in int32.
Without it, on AVX2 and AVX512BW CPUs, the kernel's vpmaddubsw adds two byte
products into an int16 first, and that sum saturates where both products are
large (2 x 255 x 127 > 32767). ONNX Runtime's quantization guide names this:
"U8S8 can have saturation issue" on x86-64 without VNNI. So the same
pipeline gave other words on such a CPU than the model card's (56 of CTB6
test's 1,975 lines for zh_cws_gd 0.6.0, OOV recall 80.20 against 80.34).

Here, before the InferenceSession starts on such a CPU, each int8 weight w
and its zero point z become uint8 w + 128 and z + 128 ("U8U8"): the same
products, (w + 128) - (z + 128) = w - z, which ONNX Runtime's U8U8 kernel
sums in 16-bit halves without saturating. The words are then those of a
VNNI CPU, to the last digit of the card's scores (docs/experiments/inference.md,
"int8 products on CPUs without VNNI"). A CPU with VNNI keeps the graph as
it is, and its faster U8S8 kernel. Other architectures' kernels do not
saturate and keep it too.
"""
import os
import platform
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional, Union

import numpy

INTEGER_PRODUCTS = {"MatMulInteger": 3, "MatMulIntegerToFloat": 5}  # op type -> index of the weight's zero point
X86_MACHINES = {"x86_64", "amd64", "i386", "i686", "x86"}
# Linux /proc/cpuinfo flags of the instructions with exact int8 dot products.
VNNI_FLAGS = {"avx512_vnni", "avx_vnni"}
ONNX_INSTALL = "pip install onnx"  # a requirement of spacy-cws; missing only from an install without dependencies


def saturating_int8_products(machine: Optional[str] = None, flags: Optional[set] = None) -> bool:
    """Whether ONNX Runtime's U8S8 products may saturate here: an x86 CPU without VNNI.

    machine: platform.machine() (this process's by default). flags: the CPU's
    feature flags as /proc/cpuinfo names them (read from it by default). Where
    there is no /proc/cpuinfo (macOS, Windows) the CPU counts as one without
    VNNI: the rewrite is exact on any CPU, only perhaps slower than U8S8 with VNNI.
    """
    if (machine or platform.machine()).lower() not in X86_MACHINES:
        return False
    return not (VNNI_FLAGS & (_cpu_flags() if flags is None else flags))


@contextmanager
def graph_for_this_cpu(graph: Union[bytes, str]) -> Iterator[Union[bytes, str]]:
    """Inside: ``graph`` (an ONNX model's bytes or file) as ONNX Runtime should
    run it on this CPU: unchanged, or with unsigned weights where its int8
    products would saturate. A file stays a file: the rewritten graph is
    written to a temporary file, removed on leaving, because an
    InferenceSession keeps a copy of a model given as bytes and not of one
    read from a file (12 MB for zh_cws_gd_sm); without a writable temporary
    folder, the rewritten bytes.

    RAISES ImportError: as unsigned_weight_graph.
    """
    rewritten = unsigned_weight_graph(graph) if saturating_int8_products() else graph
    if rewritten is graph or isinstance(graph, bytes):
        yield rewritten
        return
    try:
        handle, name = tempfile.mkstemp(suffix=".onnx")
    except OSError:  # no writable temporary folder: the bytes, at the cost of their copy
        yield rewritten
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(rewritten)
        del rewritten
        yield name
    finally:
        os.remove(name)


def unsigned_weight_graph(graph: Union[bytes, str, Path]) -> Union[bytes, str, Path]:
    """``graph`` (an ONNX model's bytes or file) with the int8 weights and
    zero points of its integer products in uint8, 128 higher (module
    docstring); the graph unchanged (the same object) where it has none, or
    where onnx cannot read it (ONNX Runtime then says why it cannot load it).

    RAISES ImportError: without the onnx package, naming what installs it.
    """
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError as err:
        raise ImportError(
            f"This CPU has no VNNI, so spacy-cws rewrites an int8 ONNX graph's weights before ONNX Runtime "
            f"runs it, which needs the onnx package: {ONNX_INSTALL}"
        ) from err
    from google.protobuf.message import DecodeError

    try:
        model = onnx.load_from_string(graph) if isinstance(graph, bytes) else onnx.load(str(graph))
    except (DecodeError, OSError):
        return graph
    initializers = {initializer.name: initializer for initializer in model.graph.initializer}
    rewritten = set()
    for node in model.graph.node:
        if node.op_type not in INTEGER_PRODUCTS or node.domain not in ("", "com.microsoft"):
            continue
        weight = initializers.get(node.input[1])
        if weight is None or weight.data_type != onnx.TensorProto.INT8:
            continue
        position = INTEGER_PRODUCTS[node.op_type]
        inputs = list(node.input) + [""] * (position + 1 - len(node.input))
        if inputs[position] and inputs[position] not in initializers:
            continue  # a zero point computed in the graph: not one the exporters write
        if not inputs[position]:  # no zero point: 0, which is 128 in uint8
            inputs[position] = f"{weight.name}/unsigned_zero_point"
            zero = numpy.zeros(numpy_helper.to_array(weight).shape[-1:], dtype=numpy.int8)
            model.graph.initializer.append(numpy_helper.from_array(zero, inputs[position]))
            initializers[inputs[position]] = model.graph.initializer[-1]
            del node.input[:]
            node.input.extend(inputs)
        for name in (inputs[1], inputs[position]):
            if name not in rewritten:
                initializers[name].CopyFrom(_shifted_to_uint8(initializers[name], numpy_helper))
                rewritten.add(name)
    return model.SerializeToString() if rewritten else graph


def _shifted_to_uint8(initializer, numpy_helper):
    """A uint8 initializer of the same name, with int8 ``initializer``'s values 128 higher."""
    values = numpy_helper.to_array(initializer)
    if values.dtype != numpy.int8:
        raise ValueError(f"the ONNX graph's integer product input '{initializer.name}' is {values.dtype}, not int8")
    return numpy_helper.from_array((values.astype(numpy.int16) + 128).astype(numpy.uint8), initializer.name)


@lru_cache(maxsize=1)
def _cpu_flags() -> frozenset:
    """The CPU's feature flags, as /proc/cpuinfo names them (none without it); read once."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text(errors="replace").splitlines() if cpuinfo.exists() else []
    return frozenset(next((line.partition(":")[2].split() for line in lines if line.startswith("flags")), ()))
