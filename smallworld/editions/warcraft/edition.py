"""The Small World of Warcraft edition: its units and data, islands, Murlocs, factions, citations."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from smallworld.boards.model import BoardSide
from smallworld.editions._loading import Catalogue
from smallworld.editions.warcraft.factions import FACTIONS, OPPOSED
from smallworld.editions.warcraft.team import Team
from smallworld.engine.model.edition import BoardSet, Edition, Entry, EntryRule, Natives
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.rules.variants.standard import Standard

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


def entries() -> list[Entry]:
    cat = Catalogue("warcraft", __package__ or "", UNIT_PACKAGES, DATA)
    out = cat.entries("race", faction=True, faction_source=True, tray=True) + cat.entries("power")
    for m in cat.rows("relic"):
        out.append(
            Entry(
                id=m["id"], kind="relic", name=m["name"], value=0, source=m["source"], confidence="high",
                section=m["section"], unit=cat.unit("relic", m["id"]), group=m["kind"],
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
