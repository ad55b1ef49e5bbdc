"""A tiny edition that exists only for tests: two races, two powers and one small map, built to
exercise every seam where the classic Small World differs from Small World of Warcraft
(`../shared/rules/classic-rules.md` §12), so those seams are proved before classic content exists:

* the first conquest enters through a region on the map's border, with no travel cost;
* natives of its own (the Wildlings) start on their symbol and never come back;
* no factions and no markers;
* terrains and features of its own (Tundra, Camp, Border);
* Wraiths conquer while In Decline, in a phase of their own at the start of their owner's turn,
  and keep every token when they decline (classic Ghouls);
* the Stubborn power may go into decline after a normal turn's scoring (classic Stout);
* the Haunting power keeps its race as a second In-Decline race beside the player's other one
  (classic Spirit);
* the Reckless power makes no target-first final die attempt (classic Berserk rolls its own way);
* the Truce power shields its Active race from one named opponent (classic Diplomat).

Its rule citations point into an imaginary rulebook ("M§..."), so a test can see that the engine's
errors cite the edition handed to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from smallworld.boards.model import BoardSide
from smallworld.engine.model.edition import BoardSet, Edition, Entry, EntryRule, Natives, register
from smallworld.engine.model.hooks import ALL_TOKENS, Unit
from smallworld.engine.model.protocol import Field, FieldType
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.rules.variants.standard import Standard

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "mini"

# A ring of eight regions around a central Tundra; regions 1-6 touch the map's border.
_REGIONS = [
    (1, "Cliffs", "Meadow", ["Border"], [2, 6, 7]),
    (2, "Fen", "Tundra", ["Border", "Camp"], [1, 3, 7]),
    (3, "Crag", "Mountain", ["Border"], [2, 4, 8]),
    (4, "Shore", "Meadow", ["Border"], [3, 5, 8]),
    (5, "Heath", "Tundra", ["Border", "Camp"], [4, 6, 8]),
    (6, "Dunes", "Meadow", ["Border"], [1, 5, 7]),
    (7, "Hollow", "Meadow", [], [1, 2, 6, 8]),
    (8, "Core", "Tundra", [], [3, 4, 5, 7]),
    (9, "Inlet", "Sea", ["Border"], []),
]
SIDE = {
    "id": "MINI",
    "size": "S",
    "regions": [
        {"id": i, "name": n, "terrain": t, "features": f, "adjacent": a} for i, n, t, f, a in _REGIONS
    ],
}


class OneMap(BoardSet):
    def side(self, side_id: str) -> BoardSide:
        if side_id != "MINI":
            raise KeyError(f"no board side {side_id!r}; known: MINI")
        return BoardSide.from_json(SIDE)

    def ids(self) -> list[str]:
        return ["MINI"]

    def draw(self, players: int, randbelow: Callable[[int], int]) -> list[str]:
        return ["MINI"]


class Wraiths(Unit):
    """Conquer while In Decline, in a phase of their own (classic Ghouls); keep all on decline."""

    id = "wraiths"
    kind = "race"
    section = "M§7.1"
    conquers_in_decline = True
    decline_keep = ALL_TOKENS


class Gnolls(Unit):
    """Tundra regions cost them 1 token fewer: a terrain only this edition knows."""

    id = "gnolls"
    kind = "race"
    section = "M§7.2"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 1 if st.game.map.regions[region].terrain == "Tundra" else 0


class Stubborn(Unit):
    """May go into decline after a normal turn's scoring (classic Stout)."""

    id = "stubborn"
    kind = "power"
    section = "M§8.1"
    declines_after_scoring = True


class Haunting(Unit):
    """In Decline, the race stays beside the player's other In-Decline race (classic Spirit)."""

    id = "haunting"
    kind = "power"
    section = "M§8.2"
    decline_slot = "haunting"


class Reckless(Unit):
    """No final die attempt: its race uses the die its own way (classic Berserk)."""

    id = "reckless"
    kind = "power"
    section = "M§8.3"
    final_attempt = False


class Truce(Unit):
    """The opponent named in its seat data may not attack its Active race (classic Diplomat)."""

    id = "truce"
    kind = "power"
    section = "M§8.4"
    seat_fields = (Field("with", FieldType.SEAT, "the opponent at peace", optional=True),)

    def shielded(self, st: State, owner: int, attacker: int) -> int:
        if st.seats[owner].ext.get(self.id, {}).get("with") != attacker:
            return 0
        return st.occupied_mask(st.seats[owner].active)


CITATIONS = {rule: f"M§{i + 1}" for i, rule in enumerate(Rule)}


def _entry(unit: Unit, kind: str, value: int, tray: int | None = None) -> Entry:
    name = unit.id.capitalize()
    return Entry(unit.id, kind, name, value, "test", "high", unit.section, unit, tray=tray)


def build() -> Edition:
    return Edition(
        id=ID,
        name="Mini (tests only)",
        rulebook="none",
        entries=[
            _entry(Wraiths(), "race", 4, tray=12),
            _entry(Gnolls(), "race", 5, tray=12),
            _entry(Stubborn(), "power", 3),
            _entry(Haunting(), "power", 3),
            _entry(Reckless(), "power", 3),
            _entry(Truce(), "power", 3),
        ],
        boards=OneMap(),
        variants={"standard": Standard()},
        citations=CITATIONS,
        rounds={2: 6},
        entry_rule=EntryRule(first="Border"),
        natives=Natives(id="wildlings", name="Wildlings", supply=6, feature="Camp"),
        terrains=("Meadow", "Tundra", "Mountain", "Sea"),
        water=frozenset({"Sea"}),
        features=("Border", "Camp"),
        terrain_defence={"Mountain": 1},
    )


EDITION = register(build())
