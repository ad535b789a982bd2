"""``segment --engine ray``: a local Ray cluster gives the local engine's bytes."""
import pytest
from typer.testing import CliRunner

from spacy_cws.cli import app

from .test_segment import ADVERSARIAL, model_path, model_paths, write_lines  # noqa: F401 (fixtures)
from .test_segment_scale import ctb6_text, reference  # noqa: F401 (fixtures)

ray = pytest.importorskip("ray", reason="--engine ray needs the 'distributed' extra (ray[data])")


@pytest.fixture(scope="module")
def local_cluster():
    # The CI machine's 2 CPUs; a dataset that stops progressing (as one once
    # did, with every CPU held by the actor pool) fails in minutes, not 30.
    ray.data.DataContext.get_current().execution_no_progress_timeout_s = 300
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def segment(model, *args):
    return CliRunner().invoke(app, ["segment", "--model", str(model), *map(str, args)])


@pytest.mark.slow
def test_ray_engine_is_byte_identical_to_local(local_cluster, model_path, ctb6_text, reference, tmp_path):  # noqa: F811
    # Two files, the second with the line-end and BOM cases, in input order.
    tricky = tmp_path / "tricky.txt"
    tricky.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(ADVERSARIAL).encode("utf-8") + "\n孤\r独".encode("utf-8"))
    outputs = {}
    for engine in ("local", "ray"):
        outputs[engine] = tmp_path / f"{engine}.txt"
        result = segment(model_path, ctb6_text, tricky, "--engine", engine, "-n", "2", "--batch-size", "16",
                         "-o", outputs[engine])
        assert result.exit_code == 0, result.output
    assert outputs["ray"].read_bytes() == outputs["local"].read_bytes()
    assert outputs["ray"].read_bytes().startswith(reference)


@pytest.mark.slow
def test_ray_engine_names_bad_input(local_cluster, model_path, tmp_path):  # noqa: F811
    bad = tmp_path / "bad.txt"
    bad.write_bytes("数据\n".encode("utf-8") + b"\xff\xfe\n")
    result = segment(model_path, bad, "--engine", "ray", "-n", "1")
    assert result.exit_code == 1 and "line 2: not valid UTF-8" in result.stderr


def test_ray_engine_reads_files_only(model_path):  # noqa: F811
    result = segment(model_path, "-", "--engine", "ray")
    assert result.exit_code == 1 and "--engine ray reads files" in result.stderr
