"""The modules of each spacy_cws package import one another one way: no module
reaches itself through its imports, whether at the top or inside a function."""
import ast
from pathlib import Path

import pytest

import spacy_cws

PACKAGES = sorted(path.parent for path in Path(spacy_cws.__file__).parent.rglob("__init__.py"))


def _imports(path: Path) -> set:
    """The sibling modules that ``path`` imports (``from .name import ...``), anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _cycle(graph: dict, start: str, path: tuple = ()) -> tuple:
    """A chain of imports from ``start`` back to a module already on ``path`` (empty: none)."""
    for name in sorted(graph.get(start, ())):
        if name in path + (start,):
            return path + (start, name)
        found = _cycle(graph, name, path + (start,))
        if found:
            return found
    return ()


@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
def test_no_module_of_a_package_imports_itself_through_others(package):
    graph = {path.stem: _imports(path) for path in package.glob("*.py")}
    cycles = [" -> ".join(cycle) for cycle in map(lambda name: _cycle(graph, name), sorted(graph)) if cycle]
    assert not cycles, cycles
