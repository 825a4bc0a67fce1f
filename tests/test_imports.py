"""The package's layers, read from its source with :mod:`ast`: no import cycle between its
modules (imports inside functions count), and the extraction core imports nothing from the
Scrapy layer (``crawl/``), the cluster tools (``cluster/``), the command line (``cli/``) or
Scrapy itself."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import scrapy_cetd

PACKAGE = Path(scrapy_cetd.__file__).parent
#: The extraction core and the archive tools: the library that works without Scrapy.
CORE = (
    "api", "extraction", "parsing", "page", "render", "markdown", "fingerprint", "registry", "algorithms",
    "metadata", "warc", "limits", "outputs", "parquet", "responses",
)
#: What the core may not import: the layers above it, and the crawl framework.
ABOVE_CORE = ("scrapy_cetd.crawl", "scrapy_cetd.cluster", "scrapy_cetd.cli", "scrapy", "scrapy_redis", "twisted")


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of the package by dotted name, parsed."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


MODULES = _modules()


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"


def _imports(name: str, tree: ast.Module, with_type_checking: bool) -> Iterator[str]:
    """The absolute names of every module ``name`` imports, at any depth (in functions,
    classes, ``try`` blocks); ``if TYPE_CHECKING:`` blocks only if ``with_type_checking``."""
    is_package = MODULES[name][0].name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _type_checking_only(node) and not with_type_checking:
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in MODULES]
            yield from submodules  # ``from .warc import reader``: a module
            if len(submodules) < len(node.names):  # a name the package itself defines
                yield source
        stack.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    return {
        name: {target for target in _imports(name, tree, False) if target in MODULES and target != name}
        for name, (_, tree) in MODULES.items()
    }


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as its path (first node repeated at the end), or ``None``;
    an iterative depth-first search."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        state[start] = 1
        pending = [iter(sorted(graph[start]))]
        while pending:
            following = next(pending[-1], None)
            if following is None:
                state[path.pop()] = 2
                pending.pop()
            elif state.get(following) == 1:
                return [*path[path.index(following):], following]
            elif following not in state:
                state[following] = 1
                path.append(following)
                pending.append(iter(sorted(graph.get(following, ()))))
    return None


def test_the_cycle_finder_finds_a_cycle_through_several_modules() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_imports_inside_functions() -> None:
    graph = import_graph()
    # crawl.exporters imports the pipeline inside feed_types(); cli imports evaluation inside its commands
    assert "scrapy_cetd.crawl.pipelines" in graph["scrapy_cetd.crawl.exporters"]
    assert "scrapy_cetd.evaluation.runner" in graph["scrapy_cetd.cli.evaluate"]


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


#: The core's modules.
CORE_MODULES = sorted(name for name in MODULES if name.split(".")[1:2] and name.split(".")[1] in CORE)


def test_the_core_is_most_of_the_package() -> None:
    expected = {"scrapy_cetd.api", "scrapy_cetd.warc.extract", "scrapy_cetd.warc.batch", "scrapy_cetd.algorithms.plus"}
    assert expected <= set(CORE_MODULES)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_the_core_imports_nothing_of_the_layers_above_it(name: str) -> None:
    above = sorted(
        target
        for target in _imports(name, MODULES[name][1], True)
        if any(target == layer or target.startswith(f"{layer}.") for layer in ABOVE_CORE)
    )
    assert not above, f"{name} imports {', '.join(above)}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.endswith("__main__")))
def test_every_module_says_what_it_exports(name: str) -> None:
    targets = [
        target
        for node in MODULES[name][1].body
        for target in (node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)])
    ]
    assert any(getattr(target, "id", None) == "__all__" for target in targets), f"{name} has no __all__"
