"""The reasons of every refusal, read from the code: the engine's and the units' `Why(...)` and
`Unit.why(...)`, the reasons given to the error classes, their defaults, and the server's codes
(a server refusal's reason is its code). Each with the parameter names the code gives it (None
where a call spreads a mapping: not known here)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from smallworld.engine.model.errors import REFUSED
from smallworld.server.errors import STATUS

PACKAGE = Path(__file__).resolve().parents[1] / "smallworld"
UNIT_FOLDERS = ("races", "powers", "relics")
# Where a reason is passed on rather than named: the engine's citing wrapper, the errors module and
# `Unit.why` (which prefixes the unit's id).
PASSED_ON = {"engine/flow/diagnose.py", "engine/model/errors.py", "engine/model/hooks.py"}
# error class -> (index of the reason argument, index of the params mapping, parameters always given)
ERRORS = {
    "IllegalActionError": (3, 4, set()),
    "GameOverError": (3, 4, set()),
    "MalformedActionError": (2, 3, {"field"}),
    "PositionError": (2, 3, {"field"}),
}
# The reasons nobody names: the error classes' defaults and their codes.
DEFAULTS = {
    REFUSED: set(),
    "malformed": {"field"},
    "invalid_input": {"field"},
    "not_your_turn": {"seat", "acting_seat"},
    "error": set(),
    "illegal_action": set(),
    "game_over": set(),
    "malformed_action": set(),
}


def _names(call: ast.Call) -> set[str] | None:
    """The keyword names of a `Why`-like call (None if it spreads a mapping)."""
    names = set()
    for kw in call.keywords:
        if kw.arg is None:
            return None
        names.add(kw.arg)
    return names


def _keys(node: ast.expr | None) -> set[str] | None:
    if node is None:
        return set()
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return {str(k.value) for k in node.keys if isinstance(k, ast.Constant)}
    if isinstance(node, ast.Constant) and node.value is None:
        return set()
    return None


def _merge(out: dict[str, set[str] | None], reason: str, given: set[str] | None) -> None:
    if reason in out and out[reason] is not None and given is not None:
        out[reason] = out[reason] | given  # type: ignore[operator]
    elif reason not in out:
        out[reason] = given
    else:
        out[reason] = None


@cache
def scan() -> tuple[dict[str, set[str] | None], list[str]]:
    """(reason -> parameter names, places that name a reason that is not a literal)."""
    out: dict[str, set[str] | None] = {k: set(v) for k, v in DEFAULTS.items()}
    for code in STATUS:
        out.setdefault(code, {"field"})
    odd: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        unit = path.stem if path.parent.name in UNIT_FOLDERS else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "Why" or (name == "why" and unit is not None and isinstance(f, ast.Attribute)):
                arg = node.args[2] if len(node.args) > 2 else None
                given = _names(node)
                prefix = f"{unit}." if name == "why" else ""
            elif name in ERRORS:
                i, j, always = ERRORS[name]
                arg = node.args[i] if len(node.args) > i else None
                keys = _keys(node.args[j] if len(node.args) > j else None)
                given = None if keys is None else keys | always
                prefix = ""
            else:
                continue
            if arg is None:
                continue  # the class's default reason
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                _merge(out, prefix + arg.value, given)
            elif rel not in PASSED_ON:
                odd.append(f"{rel}:{node.lineno}")
    return out, odd


def shown_params(given: set[str]) -> set[str]:
    """The parameters a template may use when the code gives `given` (`smallworld.words.why`)."""
    out = set(given)
    for name in given:
        if name == "seat" or name.endswith("_seat"):
            out.add(f"{name}_you")
        if name in ("regions", "pieces"):
            out.add(f"{name}_any")
    if "why" in given:
        return out | {"why"}
    return out
