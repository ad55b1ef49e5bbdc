"""What every edition does to gather its content: find the unit modules of its packages and read
the rows of its data files (values with their sources), then pair each row with its unit."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from smallworld.engine.model.edition import Entry
from smallworld.engine.model.hooks import Unit


def find_units(package: str, subpackages: Iterable[str]) -> dict[str, Unit]:
    """Every `UNIT` of the modules of `package.<sub>` (modules named `_*` are shared helpers)."""
    units: dict[str, Unit] = {}
    for sub in subpackages:
        full = f"{package}.{sub}"
        pkg = importlib.import_module(full)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.startswith("_"):
                continue
            unit = getattr(importlib.import_module(f"{full}.{info.name}"), "UNIT", None)
            if isinstance(unit, Unit):
                units[unit.id] = unit
    return units


def data_rows(data: Path, kind: str) -> list[dict[str, Any]]:
    """The rows of `data/<kind>s.json` (`{"<kind>s": [...]}`)."""
    rows: list[dict[str, Any]] = json.loads((data / f"{kind}s.json").read_text(encoding="utf-8"))[f"{kind}s"]
    return rows


class Catalogue:
    """An edition's units and data rows, made into `Entry`s; a row without a unit module is refused."""

    def __init__(self, edition: str, package: str, subpackages: Iterable[str], data: Path) -> None:
        self.edition = edition
        self.units = find_units(package, subpackages)
        self.data = data

    def rows(self, kind: str) -> list[dict[str, Any]]:
        return data_rows(self.data, kind)

    def unit(self, kind: str, uid: str) -> Unit:
        if uid not in self.units:
            raise ValueError(f"{self.edition}: {kind} {uid!r} has a data row but no unit module")
        return self.units[uid]

    def entries(self, kind: str, **fields: Any) -> list[Entry]:
        """One entry per row of `kind` with the common fields (id, name, value, source, confidence,
        section); `fields` names further row keys to copy (`faction=True`) ."""
        return [
            Entry(
                id=r["id"], kind=kind, name=r["name"], value=r["value"], source=r["source"],
                confidence=r["confidence"], section=r["section"], unit=self.unit(kind, r["id"]),
                **{k: r[k] for k in fields},
            )
            for r in self.rows(kind)
        ]  # fmt: skip
