"""The core-rules edition: the classic edition's data, maps and citations, with units that have no
effect (every hook of `Unit` left as it is)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from smallworld.engine.model.edition import Edition, Entry, get_edition
from smallworld.engine.model.hooks import Unit

HERE = Path(__file__).parent
ID = "classic_core"


def plain_unit(uid: str, kind: str, section: str) -> Unit:
    """A unit with the id, kind and section of a classic race or power and none of its effects."""
    doc = f"{uid}: a {kind} of the core rules (no effect; its values are the classic edition's data)."
    cls = type(f"Core_{uid}", (Unit,), {"id": uid, "kind": kind, "section": section, "__doc__": doc})
    unit: Unit = cls()
    return unit


def entries(classic: Edition) -> list[Entry]:
    """The classic rows, each paired with a plain unit; `data/values.json` changes a few values."""
    over: dict[str, Any] = json.loads((HERE / "data" / "values.json").read_text(encoding="utf-8"))
    out = []
    for e in [*classic.races.values(), *classic.powers.values()]:
        row = over[f"{e.kind}s"].get(e.id, {})
        changed = {k: row[k] for k in ("value", "source", "confidence") if k in row}
        out.append(replace(e, unit=plain_unit(e.id, e.kind, e.section), **changed))
    return out


def build() -> Edition:
    """The classic edition with plain units, and without its own rule option (CL-AMB-39 is about
    Orcs, Pillaging and Skeletons, whose effects are off here)."""
    classic = get_edition("classic")
    return replace(classic, id=ID, name="Small World (core rules)", entries=entries(classic), options=())
