"""Issue 18's ONNX Runtime candidates, measured: a pipeline's GD-Transformer
run by ONNX Runtime (float32, and int8 by its dynamic quantisation) against
torch (float32; bfloat16 on a CPU with native bfloat16, as emulated it is
about 20x slower; int8 by torch's dynamic quantisation of the Linear layers;
the inference copy compiled by torch.compile's inductor, in each precision),
in one run, one thread each.

    python scripts/onnxruntime_candidates.py PIPELINE TEST_SEG [--repeats 3] [--output table.md]

The float32 inference copy of the pipeline's model (models/inference.py) is
exported with torch's TorchScript-based ONNX exporter (opset 18, batch and
length dynamic; the attention tables are built for the longest padded length
first, so the graph slices them for any shorter one) and quantised with
onnxruntime.quantization.quantize_dynamic (the MatMuls only: its Gather
quantisation rejects float16 tables). Each backend then predicts for the
pipeline's own segmenter, so featurising, batching and decoding are the
shipped ones: the table gives nlp.pipe(batch_size=256) chars/s over
TEST_SEG's text (spaces removed; best of ``--repeats``), the seconds inside the
model in that pass, the seconds of the warm-up pass (the first 200 texts; all
of them for torch.compile, which compiles again for lengths it has not seen,
its attention tables being cached per length), CTB6-style F1 by the SIGHAN
scorer, how many sentences get exactly the words of torch float32, and how
many of the first 400 get the same words segmented alone as in their batch
(dynamic quantisation scales activations per batch). A measurement for
docs/experiments, not a backend of the product: ONNX Runtime is not a
dependency (``pip install onnxruntime onnx``).
"""
import copy
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import spacy
import torch
import typer

from spacy_cws.backends.torch_network import TorchNetwork
from spacy_cws.benchmark.peers import PIPE_BATCH_SIZE
from spacy_cws.models.feature_batch import INFERENCE_LENGTH_MULTIPLE
from spacy_cws.models.inference import native_bfloat16
from spacy_cws.models.pytorch_fused_gd import FusedGDTransformer
from spacy_cws.models.wrapped_module import torch_module
from spacy_cws.backends.onnx_export import DYNAMIC_AXES as INPUT_AXES
from spacy_cws.models.padded_inputs import INPUT_NAMES
from spacy_cws.scoring.sighan import read_byte_lines, score_lines

# The first texts segmented one at a time as well, to compare with their words in a batch.
ALONE_TEXTS = 400
# The module's inputs, in its forward's order (GDTransformer.forward), and their axes.
INPUTS = list(INPUT_NAMES)
DYNAMIC_AXES = {**INPUT_AXES, "scores": {1: "batch", 2: "gaps"}}


class TimedModule:
    """A callable standing for the segmenter's inference copy: ``run`` on the
    model's input tensors, with the seconds spent in it added up."""

    def __init__(self, run: Callable[..., torch.Tensor]):
        self.run = run
        self.seconds = 0.0

    def __call__(self, *inputs: torch.Tensor) -> torch.Tensor:
        start = time.perf_counter()
        scores = self.run(*inputs)
        self.seconds += time.perf_counter() - start
        return scores


def onnxruntime_module(path: Path) -> Callable[..., torch.Tensor]:
    """The exported model at ``path`` in an ONNX Runtime session on one thread."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    used = {node.name for node in session.get_inputs()}  # the exporter drops unused inputs

    def run(*inputs: torch.Tensor) -> torch.Tensor:
        feed = {name: tensor.numpy() for name, tensor in zip(INPUTS, inputs) if name in used}
        return torch.from_numpy(session.run(None, feed)[0])

    return run


def export(module: FusedGDTransformer, example: Sequence[torch.Tensor], longest: int, path: Path) -> None:
    """Write ``module`` (a float32 inference copy) as ONNX, for padded lengths up to ``longest``."""
    module.factors.scale(longest)  # tables for every length up to longest, sliced in the graph
    with torch.no_grad():
        torch.onnx.export(
            module, tuple(example), str(path), input_names=INPUTS, output_names=["scores"],
            dynamic_axes=DYNAMIC_AXES, dynamo=False, opset_version=18,
        )


def torch_int8_module(nlp) -> TimedModule:
    """The pipeline's trained (not fused) module, its Linear layers quantised
    by torch's dynamic int8 (x86 / fbgemm kernels: int8 weights, activations
    quantised per batch); the lexicon projection stays float32, as its
    forward reads its weight's dtype."""
    plain = copy.deepcopy(torch_module(nlp.get_pipe("gd_segmenter").model)).float().eval().requires_grad_(False)
    linears = {name for name, layer in plain.named_modules() if isinstance(layer, torch.nn.Linear) and "lexicon" not in name}
    return TimedModule(torch.ao.quantization.quantize_dynamic(plain, linears, dtype=torch.qint8))


def compiled_module(nlp) -> TimedModule:
    """The segmenter's inference copy compiled by torch.compile (inductor: C++
    kernels built by the system's compiler; shapes dynamic). It compiles on its
    first call, and again wherever a guard fails (a length longer than its
    cached attention tables); graphs compiled before are dropped first."""
    torch._dynamo.reset()
    return TimedModule(torch.compile(nlp.get_pipe("gd_segmenter")._inference_module(), dynamic=True))


def predict_with_module(segmenter, module: Callable[..., torch.Tensor]) -> None:
    """Make ``module`` the segmenter's inference copy until its next _forget_inference."""
    network = TorchNetwork(segmenter.model, segmenter.cfg["precision"])
    network._module = module
    segmenter._network.set(network)


def example_inputs(nlp, texts: Sequence[str]) -> List[torch.Tensor]:
    """The model's input tensors for one batch of ``texts`` (recorded from a prediction)."""
    segmenter = nlp.get_pipe("gd_segmenter")
    recorded: List[torch.Tensor] = []
    module = segmenter._inference_module()

    def record(*inputs):
        if not recorded:
            recorded.extend(inputs)
        return module(*inputs)

    predict_with_module(segmenter, record)
    list(nlp.pipe(texts))
    segmenter._forget_inference()
    return recorded


def measure(
    nlp, texts: List[str], gold: List[bytes], module: Optional[TimedModule], repeats: int, warm_up_texts: int = 200
) -> dict:
    """chars/s and seconds in the model (of the fastest of ``repeats``
    passes), F1 and the system's words, with ``module`` as the segmenter's
    inference copy (None: its own, timed), after a warm-up pass over the first
    ``warm_up_texts`` texts."""
    segmenter = nlp.get_pipe("gd_segmenter")
    segmenter._forget_inference()
    timed = module or TimedModule(segmenter._inference_module())
    predict_with_module(segmenter, timed)  # predict uses this copy (backends/torch_network.py)
    words: List[List[str]] = []

    passes: List[Tuple[float, float]] = []  # (wall seconds, seconds in the model) per timed pass

    def run():
        timed.seconds = 0.0
        start = time.perf_counter()
        words[:] = [[token.text for token in doc] for doc in nlp.pipe(texts, batch_size=PIPE_BATCH_SIZE)]
        passes.append((time.perf_counter() - start, timed.seconds))

    warm_up = time.perf_counter()
    list(nlp.pipe(texts[:warm_up_texts], batch_size=PIPE_BATCH_SIZE))
    warm_up = time.perf_counter() - warm_up
    for _ in range(repeats):
        run()
    seconds, model_seconds = min(passes)
    # Dynamic quantisation scales activations per batch: do a text's words depend on its batch-mates?
    alone = sum(words[i] == [token.text for token in nlp(text)] for i, text in enumerate(texts[:ALONE_TEXTS]))
    segmenter._forget_inference()
    system = [" ".join(line).encode("utf-8") for line in words]
    score = score_lines(gold, system, set())
    return {
        "chars/s": sum(map(len, texts)) / seconds, "model s": model_seconds, "F1": 100 * score.f1, "words": words,
        "alone": alone, "warm-up s": warm_up,
    }


def main(
    pipeline: str = typer.Argument(..., help="Installed package or folder of a gd_segmenter pipeline"),
    test_seg: Path = typer.Argument(..., help="Gold segmentation, one sentence a line, words split by spaces"),
    repeats: int = typer.Option(3, help="Timed passes per backend; the fastest counts"),
    output: Optional[Path] = typer.Option(None, help="Also write the table here (Markdown)"),
):
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError:
        typer.echo("This measurement needs ONNX Runtime: pip install onnxruntime onnx", err=True)
        raise typer.Exit(1)
    torch.set_num_threads(1)
    gold = [line.strip() for line in read_byte_lines(test_seg) if line.strip()]
    texts = [line.decode("utf-8").replace(" ", "") for line in gold]
    rows: Dict[str, dict] = {}
    precisions = ["bfloat16", "float32"] if native_bfloat16() else ["float32"]
    for precision in precisions:  # float32 last: its pipeline is the one exported
        nlp = spacy.load(pipeline, config={"components": {"gd_segmenter": {"precision": precision}}})
        rows[f"torch {precision}"] = measure(nlp, texts, gold, None, repeats)
        rows[f"torch.compile {precision}"] = measure(nlp, texts, gold, compiled_module(nlp), repeats, len(texts))
    rows["torch int8 (dynamic)"] = measure(nlp, texts, gold, torch_int8_module(nlp), repeats)
    segmenter = nlp.get_pipe("gd_segmenter")
    module = segmenter._inference_module()
    if not isinstance(module, FusedGDTransformer):
        typer.echo(f"'{pipeline}' is not a GD-Transformer pipeline: only those are exported here", err=True)
        raise typer.Exit(1)
    longest = -(-(segmenter.cfg["max_length"] + 2) // INFERENCE_LENGTH_MULTIPLE) * INFERENCE_LENGTH_MULTIPLE
    with tempfile.TemporaryDirectory() as folder:
        exported, quantised = Path(folder) / "model.onnx", Path(folder) / "model.int8.onnx"
        export(module, example_inputs(nlp, texts[:32]), longest, exported)
        quantize_dynamic(str(exported), str(quantised), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
        for name, path in (("ONNX Runtime float32", exported), ("ONNX Runtime int8 (dynamic)", quantised)):
            rows[name] = measure(nlp, texts, gold, TimedModule(onnxruntime_module(path)), repeats)
    reference = rows["torch float32"]["words"]
    lines = [
        f"`{pipeline}`, {sum(map(len, texts)):,} characters of {test_seg.name}, one thread, nlp.pipe(batch_size={PIPE_BATCH_SIZE}), best of {repeats}",
        "",
        "| backend | chars/s | x torch float32 | seconds in the model | warm-up s | F1 | sentences as torch float32 "
        f"| of the first {ALONE_TEXTS}, sentences segmented alone as in a batch |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():
        same = sum(a == b for a, b in zip(row["words"], reference))
        lines.append(
            f"| {name} | {row['chars/s']:,.0f} | {row['chars/s'] / rows['torch float32']['chars/s']:.2f} | "
            f"{row['model s']:.2f} | {row['warm-up s']:.1f} | {row['F1']:.2f} | {same}/{len(reference)} | "
            f"{row['alone']}/{min(ALONE_TEXTS, len(reference))} |"
        )
    table = "\n".join(lines) + "\n"
    sys.stdout.write(table)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    typer.run(main)
