"""The classic Small World edition: its units and data, four maps, Lost Tribes, citations."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from smallworld.boards.model import BoardSide
from smallworld.editions._loading import Catalogue
from smallworld.engine.model.edition import BoardSet, Edition, Entry, EntryRule, Natives
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.rules.variants.standard import Standard

HERE = Path(__file__).parent
DATA = HERE / "data"
MAPS = HERE / "maps"
UNIT_PACKAGES = ("races", "powers")

TERRAINS = ("Farmland", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake")  # §2, CL-AMB-34
WATER = frozenset({"Sea", "Lake"})
FEATURES = ("Magic", "Mine", "Cavern", "LostTribe", "Border")  # §2, CL-AMB-33, CL-AMB-34
# The printed maps' sizes (§2): players -> (regions, borders).
MAP_SIZES: dict[int, tuple[int, int]] = {2: (23, 51), 3: (30, 71), 4: (39, 95), 5: (48, 120)}
MAX_LOST_TRIBES = 18  # §1: tokens in the box
MAX_MOUNTAINS = 9  # §1: Mountain markers in the box

# Where each of the engine's rules is written in classic-rules.md.
CITATIONS: dict[Rule, str] = {
    Rule.TRAY: "§1",
    Rule.MAP: "§2",
    Rule.TURN: "§5",
    Rule.START: "§5",
    Rule.ABANDON: "§5.4",
    Rule.PICK: "§5.1",
    Rule.AT_LEAST_ONE: "§5.2",
    Rule.TARGETS: "§5.2",
    Rule.COST: "§5.2",
    Rule.PAYMENTS: "§5.1",
    Rule.LOSSES: "§5.2",
    Rule.FINAL: "§5.2",
    Rule.CONQUESTS_OVER: "§5.2",
    Rule.AFTER_CONQUESTS: "§5.2",
    Rule.REDEPLOY: "§5.2",
    Rule.WITHDRAWN: "§5.2",
    Rule.SCORING: "§5.3",
    Rule.DECLINE: "§5.4",
    Rule.IMMUNE: "§6",
    Rule.GAME_OVER: "§5.5",
}

# Rule options of the edition (every RES with a real alternative that no single unit owns).
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "own_decline_nonempty",
        True,
        "CL-AMB-39 (classic §5.2): conquering one's own In-Decline token is a non-empty conquest for "
        "Orcs, Pillaging and Skeletons (false: as Warcraft AMB-43).",
        "bool",
    ),
)


class Maps(BoardSet):
    """One fixed map per player count (§3 step 1): C2, C3, C4, C5."""

    def side(self, side_id: str) -> BoardSide:
        return _load(side_id)

    def ids(self) -> list[str]:
        return sorted(p.stem for p in MAPS.glob("*.json"))

    def draw(self, players: int, randbelow: Callable[[int], int]) -> list[str]:
        return [f"C{players}"]

    def check(self, side: BoardSide) -> list[str]:
        return check_map(side)

    def summary(self, side: BoardSide) -> dict[str, Any]:
        land = [r for r in side.regions if r.terrain not in WATER]
        return {
            "players": side.extra.get("players"),
            "borders": sum(len(r.adjacent) for r in side.regions) // 2,
            "water": len(side.regions) - len(land),
            "lost_tribes": sum("LostTribe" in r.features for r in land),
            "mountains": sum(r.terrain == "Mountain" for r in land),
            "border_regions": sum("Border" in r.features for r in side.regions),
            "terrains": {t: sum(r.terrain == t for r in side.regions) for t in TERRAINS},
            "symbols": {f: sum(f in r.features for r in land) for f in ("Magic", "Mine", "Cavern")},
        }


@cache
def _load(side_id: str) -> BoardSide:
    from smallworld.boards import loader

    path = MAPS / f"{side_id}.json"
    if not path.exists():
        raise KeyError(f"no classic map {side_id!r}; known: C2, C3, C4, C5")
    return loader.load_file(path)


def check_map(side: BoardSide) -> list[str]:
    """The classic map design checks (§1, §2, CL-AMB-33), on top of the shared structural and
    geometric checks of `smallworld.boards.validate`."""
    from smallworld.boards.validate import geometry_problems, structure_problems

    out = [str(p) for p in structure_problems(side, TERRAINS, FEATURES)]

    def bad(region: int | None, rule: str, message: str) -> None:
        where = f"side {side.id}" + (f", region {region}" if region is not None else "")
        out.append(f"{where}: [{rule}] {message}")

    players = side.extra.get("players")
    if players not in MAP_SIZES:
        bad(None, "players", f"a classic map names its player count (2-5), got {players!r}")
        return out
    regions, borders = MAP_SIZES[players]
    have = sum(len(r.adjacent) for r in side.regions) // 2
    if (len(side.regions), have) != (regions, borders):
        bad(
            None,
            "map-size",
            f"{players} players: {regions} regions and {borders} borders, has {len(side.regions)} and {have}",
        )
    land = [r for r in side.regions if r.terrain not in WATER]
    for t in TERRAINS:
        if not any(r.terrain == t for r in side.regions):
            bad(None, "terrains", f"no {t} region: every terrain appears on each map")
    for f in ("Magic", "Mine", "Cavern", "LostTribe"):
        if not any(f in r.features for r in land):
            bad(None, "symbols", f"no {f} symbol")
    for r in side.regions:
        if r.terrain in WATER and set(r.features) - {"Border"}:
            bad(r.id, "feature-on-water", f"{r.terrain} region carries {sorted(r.features)}")
    tribes = sum("LostTribe" in r.features for r in land)
    if tribes > MAX_LOST_TRIBES:
        bad(None, "lost-tribes", f"{tribes} Lost Tribe symbols; the box has {MAX_LOST_TRIBES} tokens")
    mountains = sum(r.terrain == "Mountain" for r in land)
    if mountains > MAX_MOUNTAINS:
        bad(None, "mountains", f"{mountains} Mountain regions; the box has {MAX_MOUNTAINS} markers")
    geo, coast = geometry_problems(side)
    out.extend(str(p) for p in geo)
    if coast is not None:
        edge_seas = {r.id for r in side.regions if r.terrain == "Sea" and r.id in coast}
        for r in side.regions:
            if r.terrain == "Lake" and r.id in coast:
                bad(r.id, "lake-inland", "our maps keep every Lake inland (CL-AMB-33)")
            border = r.id in coast or (r.terrain not in WATER and bool(set(r.adjacent) & edge_seas))
            if border != ("Border" in r.features):
                want = "needs" if border else "must not carry"
                bad(
                    r.id,
                    "border",
                    f"{want} the Border feature (CL-AMB-33: the edge, or a shore of an edge Sea)",
                )
    return out


def entries() -> list[Entry]:
    cat = Catalogue("classic", __package__ or "", UNIT_PACKAGES, DATA)
    out = cat.entries("race", tray=True) + cat.entries("power")
    return out


def build() -> Edition:
    return Edition(
        id="classic",
        name="Small World",
        rulebook="classic-rules.md",
        entries=entries(),
        boards=Maps(),
        variants={"standard": Standard()},
        citations=CITATIONS,
        rounds={2: 10, 3: 10, 4: 9, 5: 8},  # §3, CL-AMB-02 (external values)
        entry_rule=EntryRule(first="Border"),  # §5.2: a border region first, then adjacency; no travel
        natives=Natives(
            id="lost_tribes", name="Lost Tribes", supply=18, feature="LostTribe"
        ),  # §3 step 4, §9
        terrains=TERRAINS,
        water=WATER,
        features=FEATURES,
        terrain_defence={"Mountain": 1},  # §3 step 5: a Mountain marker on every Mountain region
        options=OPTIONS,
        words=HERE / "words",
    )
