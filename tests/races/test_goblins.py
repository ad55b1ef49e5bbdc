"""Goblins (§8.7, §6.1 step 3, §6.13 step 3, AMB-13): what position files cannot show.

The bomb stack's make-up and seeding, hidden kinds in every view, copies and JSON that do not share
bomb data, the bomb piece's flags, and random games with the Goblins in play.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from support import play_file

from smallworld import scenario
from smallworld.editions.warcraft.races import goblins
from smallworld.engine import Game, Settings, view_for
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.api.record import Record
from smallworld.engine.api.serialize import state_from_json

FILES = Path(__file__).resolve().parent.parent / "scenarios" / "races" / "goblins"


def _data(name: str) -> dict[str, Any]:
    return scenario.load(FILES / f"{name}.json")


def test_pick_shuffles_six_exploding_and_six_duds() -> None:
    """§8.7, AMB-13: all 12 bombs, 6 of each kind, shuffled by the game's seeded generator."""
    data = _data("pick_gathers_all_twelve")
    st = play_file(data, ["pick 0"])
    stack = st.seats[0].ext[goblins.ID]["stack"]
    assert Counter(stack) == {goblins.EXPLODING: 6, goblins.DUD: 6}
    assert st.supply[goblins.BOMB] == 12  # the bomb that lay on the boards went back to the box
    assert play_file(data, ["pick 0"]).seats[0].ext[goblins.ID]["stack"] == stack  # same seed, same stack
    orders = set()
    for state in ("1", "2", "3", "4"):
        other = dict(data, position={**data["position"], "rng": state})
        orders.add(tuple(play_file(other, ["pick 0"]).seats[0].ext[goblins.ID]["stack"]))
    assert len(orders) > 1, "the order comes from the generator, not a fixed list"


def test_bomb_piece_is_no_defence_and_stays() -> None:
    """§8.7, §4: a bomb adds no defence, makes nothing immune or occupied, and only leaves when it is
    resolved (conquest and emptying leave it in place)."""
    piece = Game(Settings(players=2, seed=1)).pieces[goblins.BOMB]
    assert piece.supply == 12
    assert piece.defense == 0 and not piece.immune and not piece.occupies
    assert not piece.removed_on_conquest and not piece.removed_when_emptied


def test_views_hide_kinds_from_every_seat() -> None:
    """§8.7: face down and unseen, by the Goblin player too; only counts and places are shown."""
    st = play_file(_data("place_from_top_then_stop"), ["end", "bomb G:3"])
    assert st.pending, "the prompt stays open while another target remains"
    full = st.to_json()
    assert full["regions"]["G:3"]["tags"] == {goblins.BOMB: [{"order": 0, "kind": goblins.DUD}]}
    for seat in (0, 1, None):
        v = view_for(st, seat)
        ext = v["seats"][0]["ext"][goblins.ID]
        assert ext["stack"] == [None]  # one bomb left, its kind unseen
        assert v["regions"]["G:3"]["tags"] == {goblins.BOMB: [{"order": 0, "kind": None}]}
        text = json.dumps(v)
        assert goblins.EXPLODING not in text and goblins.DUD not in text
        assert v["regions"]["G:3"]["pieces"] == {goblins.BOMB: 1}
    assert st.to_json() == full, "building a view must not change the state"


def test_copies_and_json_keep_bomb_data_apart() -> None:
    """§8.7: the stack and the placed bombs live in the state; a copy never shares them."""
    st = play_file(_data("place_from_top_then_stop"), ["end"])
    before = st.to_json()
    copy = st.clone()
    copy.apply(scenario.to_action(copy, "bomb G:2"))
    assert st.to_json() == before
    assert copy.piece_tags(copy.game.map.index("G:2"), goblins.BOMB) == [{"order": 0, "kind": goblins.DUD}]
    assert not st.piece_tags(st.game.map.index("G:2"), goblins.BOMB)
    again = state_from_json(copy.game, copy.to_json())
    assert again.to_json() == copy.to_json()


def test_no_prompt_without_bombs_left() -> None:
    """§8.7: once the stack is empty, no more bombs: the turn ends without asking."""
    data = _data("place_from_top_then_stop")
    data["position"]["seats"][0]["ext"] = {goblins.ID: {"stack": []}}
    st = play_file(data, ["end"])
    assert not st.pending
    assert st.turn_seat == 1


def test_resolution_records_public_events() -> None:
    """§8.7: revealed outcomes are public, in the turn data and the last action's events."""
    st = play_file(_data("explosion_active_region"), ["end", "deploy G:2 all"])
    bombs = [e for e in st.events if e["type"] == "bomb"]
    assert bombs == [
        {"type": "bomb", "seat": 0, "region": "G:2", "result": "exploding",
         "race": "dwarves", "defender": 1, "lost": 1}
    ]  # fmt: skip
    v = view_for(st, 1)
    assert v["turn"]["data"][goblins.ID]["resolved"][0]["result"] == "exploding"


def test_returned_bomb_kind_is_not_recorded() -> None:
    """§8.7: a bomb that goes back to the stack is not revealed, so nothing says what it was."""
    st = play_file(_data("empty_region_back_on_top"), ["abandon G:2", "end", "deploy G:5 all"])
    text = json.dumps({"data": st.turn.data, "events": st.events})
    assert "returned" in text
    assert goblins.EXPLODING not in text and goblins.DUD not in text


def test_random_games_with_goblins() -> None:
    """§8.7 with §1.2: random games where the Goblins are always on offer keep every invariant,
    replay exactly, place and resolve bombs, and never show a bomb's kind in a view."""
    pool = ("goblins", "gnomes", "dwarves", "trolls", "orcs", "draenei", "night_elves", "naga", "kobolds")
    placed = resolved = 0
    for seed in range(12):
        cfg = Settings(players=2 + seed % 2, seed=seed, races=pool)
        st = Game(cfg).new_initial_state()
        rnd = random.Random(seed)
        log = []
        while not st.is_over():
            legal = st.legal_actions()
            a = legal[rnd.randrange(len(legal))]
            st.apply(a)
            log.append(a)
            check_invariants(st)
            for e in st.events:
                placed += e["type"] == "bomb_placed"
                resolved += e["type"] == "bomb" and e["result"] in (goblins.EXPLODING, goblins.DUD)
            if any(e["type"] == "bomb_placed" for e in st.events):
                for seat in (*range(cfg.players), None):
                    seats = json.dumps(view_for(st, seat)["seats"])
                    assert goblins.EXPLODING not in seats and goblins.DUD not in seats
        replayed = Record(cfg, log).replay()
        assert json.dumps(replayed.to_json(), sort_keys=True) == json.dumps(st.to_json(), sort_keys=True)
    assert placed and resolved
