"""The shape of the code: layers that import only downward, an engine that imports no content, and
units that never import one another (docs/engine.md, "Layers")."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from smallworld.engine.model.edition import get_edition

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "smallworld"
ENGINE = PACKAGE / "engine"

# The engine's layers, bottom first, one folder each: a module imports only modules of its own layer
# or below. The package's own `__init__` (the public names) sits above them all.
LAYERS = ("model", "rules", "flow", "api")
TOP = len(LAYERS)


def _layer_index(name: str) -> int:
    """The layer of an engine module named as under `smallworld.engine` (`flow.turn`), read from its
    folder; -1 for a module outside the layers' folders."""
    if name == "__init__":
        return TOP
    head = name.split(".", 1)[0]
    return LAYERS.index(head) if head in LAYERS else -1


def _module_name(path: Path) -> str:
    rel = path.relative_to(ENGINE).with_suffix("")
    parts = rel.parts
    return "__init__" if parts == ("__init__",) else ".".join(p for p in parts if p != "__init__")


def _runtime_imports(path: Path) -> Iterator[str]:
    """Every module imported by `path` at run time (function-level imports included, the imports
    under `if TYPE_CHECKING:` left out), as dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in ast.walk(node):
                skip.add(id(inner))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for alias in node.names:  # `from smallworld.engine import conquest`
                yield f"{node.module}.{alias.name}"


def _engine_modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ENGINE.rglob("*.py")}


def test_every_engine_module_has_a_layer() -> None:
    """Every module of the engine lives in the folder of its layer; none lies flat beside them."""
    missing = sorted(n for n in _engine_modules() if _layer_index(n) < 0)
    assert not missing, f"engine modules outside the layers' folders {LAYERS}: {missing}"
    assert {p.name for p in ENGINE.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(LAYERS)


def test_layers_import_only_downward() -> None:
    modules = _engine_modules()
    wrong = []
    for name, path in modules.items():
        for imported in _runtime_imports(path):
            if not imported.startswith("smallworld.engine."):
                continue
            target = imported.removeprefix("smallworld.engine.")
            if target not in modules:
                continue  # a name imported from a package, not a module
            if _layer_index(target) > _layer_index(name):
                wrong.append(f"{name} ({_layer(name)}) imports {target} ({_layer(target)})")
    assert not wrong, "upward imports:\n" + "\n".join(sorted(set(wrong)))


def _layer(name: str) -> str:
    i = _layer_index(name)
    return LAYERS[i] if i < TOP else "public names"


def test_no_import_circle_in_the_engine() -> None:
    modules = _engine_modules()
    graph = {
        name: {
            i.removeprefix("smallworld.engine.")
            for i in _runtime_imports(path)
            if i.startswith("smallworld.engine.") and i.removeprefix("smallworld.engine.") in modules
        }
        - {name}
        for name, path in modules.items()
    }
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, trail: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle.extend([*trail, node, nxt])
                return True
            if nxt not in state and visit(nxt, [*trail, node]):
                return True
        state[node] = 2
        return False

    for node in sorted(graph):
        if node not in state and visit(node, []):
            break
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_the_engine_imports_no_content_and_no_client() -> None:
    """The engine is handed an edition; it imports none, nor any client of its own."""
    allowed = ("smallworld.engine", "smallworld.boards")
    wrong = []
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "smallworld.content" not in text, path
        for imported in _runtime_imports(path):
            if imported.startswith("smallworld") and not imported.startswith(allowed):
                wrong.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not wrong, "\n".join(wrong)


# The clients a person or a program meets (bots and the simulator are players they share): none
# imports another, and their words come from `smallworld.words`, which imports none of them.
CLIENTS = ("tui", "web", "server", "env")


def test_no_client_imports_another_and_words_import_no_client() -> None:
    wrong = []
    for folder in (*CLIENTS, "words"):
        others = [c for c in CLIENTS if c != folder]
        for path in (PACKAGE / folder).rglob("*.py"):
            for imported in _runtime_imports(path):
                for other in others:
                    # The server serves the web client's files and payload: its one allowed client.
                    if folder == "server" and other == "web":
                        continue
                    if imported == f"smallworld.{other}" or imported.startswith(f"smallworld.{other}."):
                        wrong.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def _unit_modules() -> dict[str, Path]:
    """Each unit module of each edition, by the unit id it defines."""
    out: dict[str, Path] = {}
    for folder in ("races", "powers", "relics"):
        for path in (PACKAGE / "editions").glob(f"*/{folder}/*.py"):
            if not path.name.startswith("_"):
                out[path.stem] = path
    return out


def test_no_unit_imports_another() -> None:
    units = _unit_modules()
    wrong = []
    for uid, path in units.items():
        for imported in _runtime_imports(path):
            parts = imported.split(".")
            for other in units:
                if other != uid and other in parts and any(g in parts for g in ("races", "powers", "relics")):
                    wrong.append(f"{uid} imports {imported}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_no_module_outside_a_unit_names_its_ids() -> None:
    """A unit's id, its pieces and the kinds of its actions and events are named only by the unit
    (its module, data and words): clients and the engine find them through the declarations. Two
    editions may each have a unit of one id (Humans): each module may name its own."""
    owned: dict[str, str] = {}
    for edition_id in ("warcraft", "classic"):
        ed = get_edition(edition_id)
        for uid, unit in ed.units.items():
            owned[uid] = uid
            for piece in unit.pieces:
                owned[piece.id] = uid
        for kind, spec in ed.action_specs.items():
            if spec.unit != "core":
                owned.setdefault(kind, spec.unit)
        for etype, espec in ed.event_specs.items():
            if espec.unit != "core":
                owned.setdefault(etype, espec.unit)
    unit_paths = set(_unit_module_paths())
    shared = {p for p in (PACKAGE / "editions").rglob("_*.py")}
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        if path in shared:  # helpers shared by a group of units (relics/_common.py)
            continue
        mine = {path.stem} if path in unit_paths else set()
        for literal in _string_literals(path):
            owner = owned.get(literal)
            if owner is not None and owner not in mine and not _is_docstring_word(literal):
                wrong.append(f"{path.relative_to(ROOT)} names {literal!r} of {owner}")
    assert not wrong, "\n".join(sorted(wrong))


def _unit_module_paths() -> list[Path]:
    return [
        path
        for folder in ("races", "powers", "relics")
        for path in (PACKAGE / "editions").glob(f"*/{folder}/*.py")
        if not path.name.startswith("_")
    ]


def _is_docstring_word(text: str) -> bool:
    return bool(re.search(r"\s", text))


def test_measurement_is_a_client_that_nothing_imports_but_the_command_line() -> None:
    """The measurement code (`smallworld.measure`: benches, the strength study) may import the server
    and the rest as any client does; the server and every other module play without it, and only
    the command line (`smallworld bench`) reaches it."""
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        if path.is_relative_to(PACKAGE / "measure") or path == PACKAGE / "cli.py":
            continue
        for imported in _runtime_imports(path):
            if imported == "smallworld.measure" or imported.startswith("smallworld.measure."):
                wrong.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not wrong, "\n".join(sorted(set(wrong)))
