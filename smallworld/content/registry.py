"""The content registry: every race, power and relic by id, with its data and its unit.

Values come from `data/*.json` with their source; a game's settings may override any of them
(`values` in the settings or an options file). A race or power whose unit is not written yet
plays with no effect of its own and says so (`implemented: false` in `smallworld content`).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from smallworld.engine import constants
from smallworld.engine.hooks import Piece, Unit

DATA = Path(__file__).parent / "data"

# Packages whose modules define units: each module defines `UNIT = SomeUnit()`. Adding a race is
# adding one module here (plus its data row and tests); nothing else needs to know.
UNIT_PACKAGES = ("smallworld.content.races", "smallworld.content.powers", "smallworld.content.relics")


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str
    name: str
    value: int
    source: str
    confidence: str
    section: str
    unit: Unit
    implemented: bool
    faction: str | None = None
    faction_source: str | None = None
    tray: int | None = None
    group: str | None = None  # relics: "artifact" or "place"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "value": self.value,
            "source": self.source,
            "confidence": self.confidence,
            "section": self.section,
            "implemented": self.implemented,
        }
        if self.kind == "race":
            out.update(faction=self.faction, faction_source=self.faction_source, tray=self.tray)
        if self.kind == "relic":
            out["value"] = None  # markers give no tokens
            out["kind"] = self.group
        return out


class _Plain(Unit):
    """Stands for a unit whose effects are not written yet: it changes nothing."""


@cache
def _units() -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for pkg_name in UNIT_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{pkg_name}.{info.name}")
            unit = getattr(module, "UNIT", None)
            if isinstance(unit, Unit):
                units[unit.id] = unit
    return units


def _plain(kind: str, uid: str) -> Unit:
    cls = type(f"Plain_{uid}", (_Plain,), {"id": uid, "kind": kind})
    return cls()


def _rows(kind: str) -> list[dict[str, Any]]:
    """The rows of `data/{kind}s.json`."""
    return json.loads((DATA / f"{kind}s.json").read_text(encoding="utf-8"))[f"{kind}s"]


def _entry(kind: str, row: dict[str, Any], **extra: Any) -> Entry:
    """The entry of one data row; `extra` gives the fields the row does not hold."""
    unit = _units().get(row["id"])
    fields = {k: row[k] for k in ("value", "confidence") if k not in extra}
    fields.update(extra)
    return Entry(
        id=row["id"],
        kind=kind,
        name=row["name"],
        source=row["source"],
        section=row["section"],
        unit=unit or _plain(kind, row["id"]),
        implemented=unit is not None,
        **fields,
    )


@cache
def races() -> dict[str, Entry]:
    return {
        r["id"]: _entry("race", r, faction=r["faction"], faction_source=r["faction_source"], tray=r["tray"])
        for r in _rows("race")
    }


@cache
def powers() -> dict[str, Entry]:
    return {p["id"]: _entry("power", p) for p in _rows("power")}


@cache
def relics() -> dict[str, Entry]:
    """Artifacts and Legendary Places (§10): `kind` of the unit is "relic", the entry's `group`
    says which of the two it is."""
    return {m["id"]: _entry("relic", m, value=0, confidence="high", group=m["kind"]) for m in _rows("relic")}


MURLOCS = constants.MURLOCS
MURLOC_SUPPLY = constants.MURLOC_SUPPLY


def pieces() -> dict[str, Piece]:
    """Every piece kind brought by a unit (the core itself has none besides Mountains)."""
    out: dict[str, Piece] = {}
    for unit in _units().values():
        for p in unit.pieces:
            out[p.id] = p
    return out
