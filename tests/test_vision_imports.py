"""vision/'s modules import one another without cycles (issue 24: model, enroll and recognize each
imported the others, partly through imports hidden inside functions)."""
from __future__ import annotations

import ast
from pathlib import Path

import vision

PACKAGE = Path(vision.__file__).parent


def _imports() -> dict[str, set[str]]:
    """Each vision module's vision imports, wherever in the module they stand."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(("vision", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps |= {alias.name for alias in node.names}
        graph[name] = {d for d in deps if d.startswith("vision")}
    return graph


def _cycle_through(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A chain of imports from `start` back to it, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        module, chain = stack.pop()
        for dep in graph.get(module, ()):
            if dep == start:
                return chain + [start]
            if dep not in seen:
                seen.add(dep)
                stack.append((dep, chain + [dep]))
    return None


def test_no_module_of_vision_imports_itself_through_others():
    graph = _imports()
    assert "vision.recognize" in graph and "vision.model" in graph["vision.recognize"]  # the graph is read
    cycles = [c for m in sorted(graph) if (c := _cycle_through(m, graph))]
    assert not cycles, " -> ".join(cycles[0])


def test_the_cycle_check_sees_a_cycle():
    assert _cycle_through("a", {"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle_through("a", {"a": {"b"}, "b": {"c"}, "c": set()}) is None
