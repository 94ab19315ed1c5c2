"""The map reads like the architecture (docs/ARCHITECTURE.md): each package imports only from the layers below
it, no module imports itself back through others, and the top of `service/` holds its role subpackages and a
handful of entry points, not a pile of modules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("games", "players", "events", "projections", "service")

BELOW = {
    "games": set(),
    "players": {"games"},
    "events": {"games", "players"},
    "projections": {"events", "games", "players"},
    "service.application": {"projections", "events", "games", "players"},
    "service.observability": {"events", "games"},
    "service.worker": {"service.application", "service.observability", "projections", "events", "games", "players"},
}
"""What each layer may import besides itself. `service.http`, `service.ops` and the entry points at the top of
`service/` compose the others and may import any of them, but never one another's internals upward: see below."""

ENTRY_POINTS = {"__init__.py", "bootstrap.py", "config.py", "wsgi.py"}
ROLES = {"application", "http", "worker", "ops", "observability"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            found[name] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules of ours a module imports (the parents of an imported submodule run first, so they count too)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            while name:
                yield name
                name = name.rpartition(".")[0]


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {m for m in imported(path, known) if m in known and m != name} for name, path in known.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "service" and len(parts) > 1 else parts[0]


def test_no_module_imports_itself_back() -> None:
    edges = graph()
    for start in edges:
        # A package's own __init__ is imported by its modules: a cycle only through other modules counts.
        seen, todo = set(), [m for m in edges[start] if not start.startswith(m + ".")]
        while todo:
            current = todo.pop()
            if current == start:
                raise AssertionError(f"{start} imports itself back")
            if current not in seen:
                seen.add(current)
                todo.extend(m for m in edges.get(current, ()) if not current.startswith(m + "."))


def test_each_layer_imports_only_the_layers_below_it() -> None:
    for module, targets in graph().items():
        allowed = BELOW.get(layer(module))
        if allowed is None:
            continue
        wrong = sorted(t for t in targets if layer(t) != layer(module) and layer(t) not in allowed and t != "service")
        assert not wrong, f"{module} imports {wrong}, above its layer"


def test_the_top_of_service_holds_its_roles_and_a_few_entry_points() -> None:
    top = ROOT / "service"
    assert {p.name for p in top.glob("*.py")} == ENTRY_POINTS
    assert {p.name for p in top.iterdir() if p.is_dir() and (p / "__init__.py").exists()} == ROLES
