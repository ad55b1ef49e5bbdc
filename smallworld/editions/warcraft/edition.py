"""The Small World of Warcraft edition: its units and data, islands, Murlocs, factions, citations."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from smallworld.boards.model import BoardSide
from smallworld.editions.warcraft.factions import FACTIONS, OPPOSED
from smallworld.editions.warcraft.team import Team
from smallworld.engine.edition import BoardSet, Edition, Entry, EntryRule, Natives
from smallworld.engine.hooks import Unit
from smallworld.engine.rules import Rule
from smallworld.engine.variants.standard import Standard

DATA = Path(__file__).parent / "data"
UNIT_PACKAGES = ("races", "powers", "relics")

# Where each of the engine's rules is written in warcraft-rules.md.
CITATIONS: dict[Rule, str] = {
    Rule.TRAY: "§1.2",
    Rule.MAP: "§2.2",
    Rule.TURN: "§6",
    Rule.START: "§6.1",
    Rule.ABANDON: "§6.2",
    Rule.PICK: "§6.3",
    Rule.AT_LEAST_ONE: "§6.4",
    Rule.TARGETS: "§6.5",
    Rule.COST: "§6.6",
    Rule.PAYMENTS: "§6.7",
    Rule.LOSSES: "§6.9",
    Rule.FINAL: "§6.10",
    Rule.CONQUESTS_OVER: "§6.10",
    Rule.AFTER_CONQUESTS: "§6.11",
    Rule.REDEPLOY: "§6.12",
    Rule.WITHDRAWN: "§6.9",
    Rule.SCORING: "§6.14",
    Rule.DECLINE: "§6.16",
    Rule.IMMUNE: "§9.6",
    Rule.GAME_OVER: "§7",
}


class Islands(BoardSet):
    """The twelve island sides (§2.1); a game draws one side of distinct boards by size (§3.1)."""

    def side(self, side_id: str) -> BoardSide:
        from smallworld.boards import loader

        return loader.load_side(side_id)

    def ids(self) -> list[str]:
        from smallworld.boards import loader

        return loader.side_ids()

    def draw(self, players: int, randbelow: Callable[[int], int]) -> list[str]:
        from smallworld.boards import setup

        return setup.draw_sides(players, randbelow)


def _units() -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for pkg_name in UNIT_PACKAGES:
        full = f"{__package__}.{pkg_name}"
        pkg = importlib.import_module(full)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.startswith("_"):
                continue
            unit = getattr(importlib.import_module(f"{full}.{info.name}"), "UNIT", None)
            if isinstance(unit, Unit):
                units[unit.id] = unit
    return units


def _rows(kind: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((DATA / f"{kind}s.json").read_text(encoding="utf-8"))[f"{kind}s"]
    return rows


def entries() -> list[Entry]:
    units = _units()
    out: list[Entry] = []

    def unit_for(kind: str, uid: str) -> Unit:
        if uid not in units:
            raise ValueError(f"warcraft: {kind} {uid!r} has a data row but no unit module")
        return units[uid]

    for r in _rows("race"):
        out.append(
            Entry(
                id=r["id"], kind="race", name=r["name"], value=r["value"], source=r["source"],
                confidence=r["confidence"], section=r["section"], unit=unit_for("race", r["id"]),
                faction=r["faction"], faction_source=r["faction_source"], tray=r["tray"],
            )
        )  # fmt: skip
    for p in _rows("power"):
        out.append(
            Entry(
                id=p["id"], kind="power", name=p["name"], value=p["value"], source=p["source"],
                confidence=p["confidence"], section=p["section"], unit=unit_for("power", p["id"]),
            )
        )  # fmt: skip
    for m in _rows("relic"):
        out.append(
            Entry(
                id=m["id"], kind="relic", name=m["name"], value=0, source=m["source"], confidence="high",
                section=m["section"], unit=unit_for("relic", m["id"]), group=m["kind"],
            )
        )  # fmt: skip
    return out


def build() -> Edition:
    return Edition(
        id="warcraft",
        name="Small World of Warcraft",
        rulebook="warcraft-rules.md",
        entries=entries(),
        boards=Islands(),
        variants={"standard": Standard(), "team": Team()},
        citations=CITATIONS,
        rounds={2: 10, 3: 10, 4: 9, 5: 8},  # §5
        entry_rule=EntryRule(first="Entry", reach="Entry", travel="Entry", travel_cost=1),  # §6.5, §6.6
        natives=Natives(id="murlocs", name="Murlocs", supply=15, feature="Murloc"),  # §1.2, §3.2 step 5
        terrains=("Fields", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake"),  # §2.3
        water=frozenset({"Sea", "Lake"}),
        features=("Magic", "Cavern", "Entry", "Murloc", "Size"),
        terrain_defence={"Mountain": 1},  # §6.6
        factions=FACTIONS,
        opposed=OPPOSED,
        marker_feature="Size",  # §3.2 step 7
        words=Path(__file__).parent / "words",
    )
