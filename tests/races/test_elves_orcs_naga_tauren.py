"""Blood Elves, Draenei, Night Elves, Orcs, Kobolds, Naga, Tauren (§8.1, §8.2, §8.9-§8.12, §8.14):
what position files cannot show.

Holy Light outside conquests and in the Draenei's own turn, its place after the other loss
exceptions (AMB-12), the Wisp Wall piece, Caverns and water on the real boards, and random games
with these races in play.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

from support import apply_texts

from smallworld import scenario
from smallworld.editions.warcraft.races import draenei, night_elves
from smallworld.engine import Game, Settings, State
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.hooks import Unit
from smallworld.engine.rules.conquest import remove_defenders
from smallworld.engine.rules.losses import occupants

FILES = Path(__file__).resolve().parent.parent / "scenarios" / "races"


def _data(race: str, name: str) -> dict[str, Any]:
    return scenario.load(FILES / race / f"{name}.json")


# --- Draenei: Holy Light (§8.2, §6.9, AMB-12) ----------------------------------------------------
def _draenei_under_attack() -> State:
    """Orcs (seat 0) to move; Draenei (seat 1) hold Meadow, Knoll and Grove with 1 token each."""
    return scenario.build(_data("draenei", "second_loss_same_turn_is_normal"))


def test_holy_light_any_cause_in_opponents_turn() -> None:
    """§8.2: a discard for any reason (a bomb, Intimidating) in an opponent's turn is saved once."""
    st = _draenei_under_attack()
    meadow = st.game.map.index("T:2")
    tray = st.tray["draenei"]
    info = remove_defenders(st, meadow, None, "emptied")
    assert info.prevented == "draenei" and info.lost == 0
    assert st.tray["draenei"] == tray and st.seats[1].hand == 1
    knoll = st.game.map.index("T:4")
    info = remove_defenders(st, knoll, None, "intimidating")
    assert info.prevented is None and info.lost == 1
    assert st.tray["draenei"] == tray + 1


def test_holy_light_never_in_own_turn() -> None:
    """AMB-12: in the Draenei player's own turn a discard is never saved."""
    st = _draenei_under_attack()
    st.turn_seat = st.acting_seat = 1
    tray = st.tray["draenei"]
    info = remove_defenders(st, st.game.map.index("T:2"), None, "emptied")
    assert info.prevented is None and info.lost == 1
    assert st.tray["draenei"] == tray + 1 and st.seats[1].hand == 0
    assert not _holy_light_used(st)


def test_holy_light_only_for_the_active_race() -> None:
    """§8.2: In-Decline Draenei lose every token of a conquered region (no Holy Light)."""
    st = scenario.build(_data("draenei", "declined_draenei_no_holy_light"))
    info = remove_defenders(st, st.game.map.index("T:2"), 0, "conquest")
    assert info.prevented is None and info.lost == 1
    assert not _holy_light_used(st)


def test_holy_light_comes_after_every_other_loss_exception() -> None:
    """AMB-12 order Chapel > Champion > Beast > Holy Light: every other unit that can take a loss
    is asked first, so a loss they prevent does not use up the Holy Light."""
    own = draenei.UNIT.loss_priority
    ed = get_edition("warcraft")
    entries = [*ed.races.values(), *ed.powers.values(), *ed.relics.values()]
    others = [e.unit for e in entries if e.unit is not draenei.UNIT and _prevents(e.unit)]
    assert others, "the Chapel, the Champion and the Beasts take losses too"
    assert all(u.loss_priority < own for u in others), [(u.id, u.loss_priority) for u in others]


def _holy_light_used(st: State) -> bool:
    return bool(st.turn.data.get("draenei", {}).get("used"))


def _prevents(u: Unit) -> bool:
    return type(u).prevent_loss is not Unit.prevent_loss


class _FirstLossShield(Unit):
    """Stands for the Chapel, the Champion or a Beast: takes the first loss of the turn."""

    id = "archaeologist"  # the Draenei's badge in the position file
    kind = "power"
    loss_priority = 10
    calls: ClassVar[list[int]] = []

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        self.calls.append(region)
        mine = st.turn_data(self.id)
        if mine.get("shield"):
            return False
        mine["shield"] = True
        return True


def test_holy_light_not_used_up_by_another_exception() -> None:
    """AMB-12: a loss another rule prevents leaves the Holy Light for the next loss of the turn, so
    two conquests of Draenei regions in one turn cost them nothing."""
    data = _data("draenei", "second_loss_same_turn_is_normal")
    game = Game.from_settings(data["settings"])
    game.set_unit("archaeologist", _FirstLossShield())
    st = state_from_json(game, data["position"])
    tray = st.tray["draenei"]
    _FirstLossShield.calls.clear()
    apply_texts(st, ["conquer T:2"])
    assert st.turn.data["archaeologist"].get("shield") and not _holy_light_used(st)
    apply_texts(st, ["conquer T:4"])
    assert _holy_light_used(st)
    assert st.tray["draenei"] == tray and st.seats[1].hand == 2
    assert len(_FirstLossShield.calls) == 2  # asked before Holy Light both times


# --- Night Elves: the Wisp Wall piece (§8.11, §1.1) ------------------------------------------------
def test_wisp_wall_piece() -> None:
    """§8.11: 9 Walls, +1 defence, removed when conquered or emptied, no immunity, no occupation."""
    (wall,) = night_elves.UNIT.pieces
    assert wall.id == night_elves.WISP_WALL == "wisp_wall"
    assert (wall.supply, wall.defense) == (9, 1)
    assert wall.removed_on_conquest and wall.removed_when_emptied
    assert not wall.immune and not wall.occupies
    assert get_edition("warcraft").pieces[wall.id] == wall


def test_wisp_wall_supply_returns_when_removed() -> None:
    """§8.11, §1.1: a Wall removed by a conquest goes back to the box and can be placed again."""
    st = scenario.build(_data("night_elves", "wisp_wall_defends_then_is_removed"))
    assert st.supply["wisp_wall"] == 7
    apply_texts(st, ["conquer T:2"])
    assert st.supply["wisp_wall"] == 8


# --- Kobolds and Naga on the real boards (§8.9, §8.10, §6.5) ---------------------------------------
def _entering(race: str, sides: list[str]) -> State:
    game = Game(Settings(players=2, seed=3, boards=tuple(sides)))
    return state_from_json(
        game,
        {
            "round": 1,
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [{"coins": 5, "active": race, "power": "swamp_walker", "hand": 8}, {"coins": 5}],
            "regions": {},
        },
    )


def _targets(st: State) -> set[int]:
    return {a.region for a in st.legal_actions() if a.kind in ("conquer", "final") and a.region is not None}


def test_kobolds_first_conquest_on_real_boards() -> None:
    """§8.9: every Cavern and every Entry region, nothing else; a Cavern Entry region costs 2."""
    st = _entering("kobolds", ["L1a", "M2b"])
    m = st.game.map
    assert _targets(st) == set(bits(m.feature("Cavern") | m.feature("Entry")))
    assert scenario.cost_of(st, "L1a:12") == 2  # Cavern and Entry, empty: no travel cost


def test_naga_first_conquest_on_real_boards() -> None:
    """§8.10: every Sea and Lake, and every Entry region, nothing else."""
    st = _entering("naga", ["L1a", "M2b"])
    m = st.game.map
    assert m.water.bit_count() == 2
    assert _targets(st) == set(bits(m.water | m.feature("Entry")))
    for r in bits(m.water):
        assert scenario.cost_of(st, m.ref(r)) == 2 + st.tokens[r]


# --- random games --------------------------------------------------------------------------------
def test_random_games_with_these_races() -> None:
    """§1.2, §8: random games where only these races are on offer keep every invariant (tray
    limits, the Tauren minimum at each start of turn) and use their effects."""
    pool = ("blood_elves", "draenei", "night_elves", "orcs", "kobolds", "naga", "tauren", "trolls", "dwarves")
    walls = water = saved = 0
    for seed in range(10):
        cfg = Settings(players=2 + seed % 3, seed=seed, races=pool)
        st = Game(cfg).new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rnd.randrange(len(legal))])
            check_invariants(st)
            walls = max(walls, 9 - st.supply["wisp_wall"])
            water |= st.occupied_mask("naga") & st.game.map.water
            saved += bool(_holy_light_used(st))
            for s in st.seats:
                if s.active == "tauren" and st.phase in ("pick", "start", "conquer"):
                    # AMB-11: the Champion (or a Beast) counts towards the Tauren's 2 per region.
                    assert all(occupants(st, r) >= 2 for r in bits(st.occupied_mask("tauren")))
    assert walls and water and saved
