"""Gnomes (§8.6, §6.10, AMB-23): the airborne assault, beyond what position files show.

Which regions it may target, the public record of its rolls, copies that do not share that record,
its rejection once used, and random games with the Gnomes in play.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support import play_file

from smallworld import scenario
from smallworld.editions.warcraft.races import gnomes
from smallworld.engine import Game, IllegalActionError, Settings, view_for
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.model.board_map import bits

FILES = Path(__file__).resolve().parent.parent / "scenarios" / "races" / "gnomes"


def _data(name: str) -> dict[str, Any]:
    return scenario.load(FILES / f"{name}.json")


def test_targets_every_land_region_of_every_board() -> None:
    """§8.6: any region on any board, except Seas/Lakes, immune regions and the Gnomes' own."""
    st = play_file(_data("other_island"), [])
    m = st.game.map
    own = st.occupied_mask("gnomes")
    want = {r for r in range(m.n) if not (m.water >> r) & 1 and not (own >> r) & 1}
    got = {a.region for a in st.legal_actions() if a.kind == gnomes.AIRBORNE}
    assert got == want
    assert any(m.regions[r].side == "U" for r in got)
    assert not any((m.water >> r) & 1 for r in got)
    assert set(bits(own)).isdisjoint(got)


def test_rolls_are_public() -> None:
    """§8.6: the free roll and the second roll are recorded for every seat to see."""
    st = play_file(_data("final_second_die_wins"), ["airborne T:3"])
    first = [e for e in st.events if e["type"] == gnomes.AIRBORNE]
    assert first and first[0]["roll"] == 1 and first[0]["reduced"] == 5
    st.apply(scenario.to_action(st, gnomes.FINAL))
    dice = [e for e in st.events if e["type"] == "die"]
    assert dice and dice[0]["roll"] == 3 and dice[0]["success"] is True
    for seat in (0, 1, None):
        record = view_for(st, seat)["turn"]["data"]["gnomes"][gnomes.AIRBORNE]
        assert (record["roll"], record["roll2"], record["outcome"]) == (1, 3, "final_won")


def test_prompt_goes_to_the_gnome_player_only() -> None:
    """§8.6: the final-or-cancel choice is the Gnome player's; the others see the roll, not the prompt."""
    st = play_file(_data("short_asks_final_or_cancel"), ["airborne T:3"])
    assert st.acting_seat == 0 and st.pending[0]["unit"] == "gnomes"
    assert view_for(st, 0)["pending"] and not view_for(st, 1)["pending"]
    assert view_for(st, 1)["turn"]["data"]["gnomes"][gnomes.AIRBORNE]["outcome"] == "pending"


def test_copy_does_not_share_the_record() -> None:
    """§8.6: answering the prompt in a copy leaves the original's record as it was."""
    st = play_file(_data("short_asks_final_or_cancel"), ["airborne T:3"])
    before = st.to_json()
    copy = st.clone()
    copy.apply(scenario.to_action(copy, gnomes.CANCEL))
    assert copy.turn.data["gnomes"][gnomes.AIRBORNE]["outcome"] == "cancelled"
    assert st.to_json() == before


def test_second_assault_rejected() -> None:
    """§8.6: once per turn, also after a successful assault; the state is left untouched."""
    st = play_file(_data("first_conquest_inland"), ["airborne T:4"])
    before = st.to_json()
    with pytest.raises(IllegalActionError):
        st.apply(scenario.to_action(st, "airborne T:7"))
    assert st.to_json() == before


def test_random_games_with_gnomes() -> None:
    """§8.6 with §1.2: random games where the Gnomes are always on offer keep every invariant and
    use the assault, its prompt included."""
    pool = ("gnomes", "goblins", "dwarves", "trolls", "orcs", "draenei", "night_elves", "naga", "kobolds")
    outcomes: set[str] = set()
    for seed in range(12):
        cfg = Settings(players=2 + seed % 2, seed=100 + seed, races=pool)
        st = Game(cfg).new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rnd.randrange(len(legal))])
            check_invariants(st)
            outcomes.update(e["outcome"] for e in st.events if e["type"] == gnomes.AIRBORNE)
    assert "conquered" in outcomes
