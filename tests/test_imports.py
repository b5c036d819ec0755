"""No import circles inside a package: dependencies point one way (pages -> ui -> rmcore, and within each); and no
import inside ``ui/`` runs back up to a room above it.

The graph is read from the source with ``ast``, not by importing: an edge ``a -> b`` for every ``import`` or
``from ... import`` in ``a`` that names module ``b`` of the same project (``from . import x`` names the module ``x``
when there is one, else the package itself). Module-level imports run when the module is imported and must form no
circle; imports inside a function run later, but a circle through them is still a circle in the design.

Up, in ``ui/``: the modules directly in ``ui/`` (``ui/*.py``: session-wide state, the live controller, words, shared
chart pieces) are the floor every page's room stands on; each room is a folder under it (``ui/matrix/``,
``ui/trees/``, ``ui/atlas/``), and a folder inside a room would stand on that room. An import runs up when the
imported module lies in a folder strictly inside the importing module's own folder: ``ui/state.py ->
ui/matrix/editor.py`` and ``ui/link.py -> ui/trees/games.py`` run up, ``ui/matrix/view.py -> ui/live.py`` runs
down, ``ui/atlas/links.py -> ui/matrix/settings.py`` runs sideways between two rooms on the same floor. No import runs
up, counting imports inside functions; and the rooms, each taken whole, form no circle (a sideways import one way
only).

``python -m tests.test_imports`` prints every edge, any circle and any import that runs up.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (a folder under the project root), by dotted name."""
    return {module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def _inside_function(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, bool]]:
    """``(imported module, at module level?)`` for every import in one module of the project's ``known`` modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                targets.append(submodule if submodule in known else source)
        level = not _inside_function(node, parents)
        for target in targets:
            while target and target not in known:  # ``import rmcore.x.y`` names the deepest known module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, level))
    return found


def graph(packages: tuple[str, ...], module_level_only: bool = True) -> dict[str, set[str]]:
    """Edges among the modules of ``packages`` (imports of other packages of the project are left out)."""
    every = {name: path for package in packages for name, path in modules(package).items()}
    known = set(every)
    return {
        name: {target for target, level in imports(name, path, known) if level or not module_level_only}
        for name, path in every.items()
    }


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each group of two or more modules that import each other, directly or round a circle (the strongly connected
    components, by Tarjan's algorithm), its modules in order."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def _circle_through(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself (breadth first, inside the group)."""
    start, members = group[0], set(group)
    previous = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v] & members):
                if w == start:
                    path = [v]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return list(reversed(path)) + [start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    return group


def _describe(found: list[list[str]], edges: dict[str, set[str]]) -> str:
    """Each group as one circle through its first module, and the group's members."""
    return "; ".join(f"{' -> '.join(_circle_through(group, edges))} (in {', '.join(group)})" for group in found)


@pytest.mark.parametrize("package", ["rmcore", "ui"])
def test_no_import_circle_at_module_level(package):
    edges = graph((package,))
    found = circles(edges)
    assert not found, f"import circles in {package}/: {_describe(found, edges)}"


@pytest.mark.parametrize("package", ["rmcore", "ui"])
def test_no_import_circle_even_through_imports_inside_functions(package):
    edges = graph((package,), module_level_only=False)
    found = circles(edges)
    assert not found, f"import circles in {package}/ (counting imports inside functions): {_describe(found, edges)}"


def upward(package: str) -> list[tuple[str, str]]:
    """Every import in ``package`` (counting imports inside functions) whose module lies in a folder strictly inside
    the importing module's own folder, as ``(importer, imported)``."""
    every = modules(package)
    edges = graph((package,), module_level_only=False)
    return sorted(
        (name, target)
        for name, targets in edges.items()
        for target in targets
        if every[target].parent != every[name].parent and every[name].parent in every[target].parent.parents
    )


def rooms(package: str) -> dict[str, set[str]]:
    """The edges between ``package``'s rooms (its floor, named by the package, and each folder directly under it),
    counting imports inside functions."""

    def room(name: str) -> str:
        parts = modules(package)[name].relative_to(ROOT).parts
        return package if len(parts) <= 2 else f"{package}.{parts[1]}"

    edges: dict[str, set[str]] = {}
    for name, targets in graph((package,), module_level_only=False).items():
        edges.setdefault(room(name), set()).update(room(t) for t in targets if room(t) != room(name))
    return edges


def test_no_import_in_ui_runs_up_to_a_room_above_it():
    found = upward("ui")
    assert not found, "imports in ui/ running up to a room above them: " + "; ".join(f"{a} -> {b}" for a, b in found)


def test_the_rooms_of_ui_form_no_circle():
    edges = rooms("ui")
    assert set(edges) >= {"ui", "ui.matrix", "ui.trees", "ui.atlas"}
    found = circles(edges)
    assert not found, f"circles between the rooms of ui/: {_describe(found, edges)}"


def test_the_reader_finds_imports_running_up_and_between_rooms_in_a_circle(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    for room in ("one", "two"):
        (package / room).mkdir(parents=True)
        (package / room / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "floor.py").write_text("def later():\n    from .one import high\n")
    (package / "level.py").write_text("from . import floor\n")
    (package / "one" / "high.py").write_text("from .. import floor\nfrom ..two import side\n")
    (package / "two" / "side.py").write_text("from ..level import floor\n\ndef later():\n    import pkg.one.high\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert upward("pkg") == [("pkg.floor", "pkg.one.high")]
    assert rooms("pkg") == {"pkg": {"pkg.one"}, "pkg.one": {"pkg", "pkg.two"}, "pkg.two": {"pkg", "pkg.one"}}
    assert circles(rooms("pkg")) == [["pkg", "pkg.one", "pkg.two"]]


def test_the_reader_resolves_relative_imports_and_finds_a_circle(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text("from . import b\nA = 1\n")
    (package / "b.py").write_text("from .sub import c\n\ndef later():\n    from . import a\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text("from .. import a\nfrom ..b import later\nfrom . import d\n")
    (package / "sub" / "d.py").write_text("import pkg.a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    edges = graph(("pkg",))
    assert edges == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.sub.c"},
        "pkg.sub": set(),
        "pkg.sub.c": {"pkg.a", "pkg.b", "pkg.sub.d"},
        "pkg.sub.d": {"pkg.a"},
    }
    assert circles(edges) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.sub.d"]]
    described = "pkg.a -> pkg.b -> pkg.sub.c -> pkg.a (in pkg.a, pkg.b, pkg.sub.c, pkg.sub.d)"
    assert _describe(circles(edges), edges) == described
    assert "pkg.a" in graph(("pkg",), module_level_only=False)["pkg.b"]


if __name__ == "__main__":
    for package in ("rmcore", "ui"):
        every = modules(package)
        for name, path in every.items():
            for target, level in sorted(set(imports(name, path, set(every)))):
                print(f"{name} -> {target}" + ("" if level else "  (inside a function)"))
        for label, level_only in (("at module level", True), ("counting imports inside functions", False)):
            edges = graph((package,), level_only)
            print(f"{package}: circles {label}: {_describe(circles(edges), edges) or 'none'}")
    print("ui: imports running up: " + ("; ".join(f"{a} -> {b}" for a, b in upward("ui")) or "none"))
