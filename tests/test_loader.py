"""The position loader accepts only positions play can reach, and says why it refuses the others.

* A fuzz (tests/position_fuzz.py) mutates valid positions (the position files' and random games'
  states) 2,000 times: each mutated file is refused with a `PositionError` naming the field, or it
  loads into a position the engine plays on keeping every invariant; no other Python exception
  escapes, and no unmutated position is refused.
* Every state of random classic games loads back as it is (the Warcraft ones: test_round_trip).
* Banners and badges are conserved in random games of both editions, the classic Spirit badge kept
  beside its In-Decline banner (classic-rules.md §5.4 step 2) included.
* Whole plans passed as Python tuples with a malformed troop entry are `MalformedActionError`s.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from position_fuzz import run

from smallworld.engine import Game, Settings
from smallworld.engine.api.invariants import banner_and_badge_problems, check_invariants
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.actions import PLAN, Action
from smallworld.engine.model.errors import MalformedActionError, PositionError

FUZZ_FILES = 2000


def test_the_fuzzed_loader_accepts_no_invalid_position_and_raises_nothing_else() -> None:
    found = run(FUZZ_FILES, seed=1, games=12)
    assert found.files == FUZZ_FILES
    assert not found.seeds_refused, f"valid positions refused: {found.seeds_refused[:5]}"
    assert not found.exceptions, f"Python exceptions: {found.exceptions[:5]}"
    assert not found.invalid, f"invalid positions accepted: {found.invalid[:5]}"
    assert found.refused > FUZZ_FILES // 3 and found.accepted > FUZZ_FILES // 10  # it tried both ways


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_a_classic_game_loads_as_it_is(players: int) -> None:
    game = Game(Settings(players=players, seed=players, edition="classic"))
    st = game.new_initial_state()
    rnd = random.Random(players)
    while True:
        data = json.loads(json.dumps(st.to_json()))
        assert state_from_json(game, data).to_json() == data
        if st.is_over():
            break
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])


def test_spirit_keeps_its_badge_in_random_classic_games() -> None:
    """§5.4 step 2: a declined Spirit race keeps its badge beside the banner; it is never on offer,
    stacked or discarded meanwhile, and every banner and badge stays in exactly one place."""
    pool = ("spirit", "hill", "forest", "swamp", "merchant", "alchemist", "commando", "wealthy")
    kept = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (2, 5), (3, 6)):
        game = Game(Settings(players=players, seed=seed, edition="classic", powers=pool))
        st = game.new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            la = st.legal_actions()
            st.apply(la[rnd.randrange(len(la))])
            check_invariants(st)
            spirit = [
                p
                for s in st.seats
                for _r, p in [(s.declined, s.declined_power), *s.more_declined]
                if p == "spirit"
            ]
            if spirit:
                kept += 1
                offer = [c[1] for c in st.row] + st.power_stack + st.power_discard
                assert "spirit" not in offer and all(s.power != "spirit" for s in st.seats)
    assert kept  # a Spirit race did decline


def test_a_position_with_a_badge_in_two_places_names_the_field() -> None:
    game = Game(Settings(players=2, seed=1, edition="classic"))
    st = game.new_initial_state()
    data = st.to_json()
    other = 1 - st.turn_seat  # not the seat that picks now
    race = data["race_stack"].pop(0)
    data["seats"][other]["active"], data["seats"][other]["power"] = race, data["row"][0]["power"]
    with pytest.raises(PositionError) as e:
        state_from_json(game, data)
    assert e.value.field == f"position.seats[{other}].power", e.value
    st.power_discard.append(st.power_stack[0])  # on a state: the invariant says the same
    assert banner_and_badge_problems(st)[0][0] == "position.power_discard[0]"


def _redeploying() -> Any:
    """A state in a redeployment step (the first of a seeded random game)."""
    st = Game(Settings(players=2, seed=4)).new_initial_state()
    rnd = random.Random(4)
    while st.phase != "redeploy":
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
    return st


@pytest.mark.parametrize(
    "rows",
    [
        ((0, 1, ("beast",)),),  # a troop entry that is not a pair
        ((0, 1, ("beast", 1, 2)),),
        ((0, 1, ((["beast"], 1),)),),  # an unhashable kind
        ((0, 1, ((None, 1),)),),
        ((0, 1, (("beast", "x"),)),),
        ((0, 1, (("nobody", 1),)),),
        ((0, 1, 7),),
        ((0, None, ()),),
        (("nowhere", 1, ()),),
        ((0, 1),),
        (),
        "T:1",
    ],
)
def test_a_malformed_plan_is_a_malformed_action(rows: Any) -> None:
    st = _redeploying()
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(MalformedActionError):
        st.apply(Action(PLAN, None, rows))
    assert json.dumps(st.to_json(), sort_keys=True) == before


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"pending": [{"unit": "forsaken", "prompt": {"x": 1}, "seat": 0}]}, "position.pending[0]"),
        ({"pending": [{"unit": ["forsaken"], "prompt": "buy", "seat": 0}]}, "position.pending[0]"),
        ({"markers": {"T:1": [{"id": {"x": 1}, "face_up": True}]}}, "position.markers.T:1[0].id"),
        ({"rolls": [{"x": 1}]}, "position.rolls"),
    ],
)
def test_unhashable_ids_are_refused_naming_the_field(patch: dict[str, Any], field: str) -> None:
    """Found by the fuzz: a dict where an id belongs escaped as TypeError (unhashable type)."""
    from smallworld import scenario

    data = scenario.load(Path(__file__).parent / "scenarios" / "core" / "redeploy" / "step_choices.json")
    data["position"] = {**data["position"], **patch}
    with pytest.raises(PositionError) as e:
        scenario.build(data)
    assert e.value.field == field, e.value
