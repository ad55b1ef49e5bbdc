"""Illegal actions name their rule and change nothing (§6.3, §6.5, §6.10, §6.12)."""

from __future__ import annotations

import json
import random

import pytest

from smallworld.engine import Action, Game, IllegalActionError, Settings, SmallworldError


def snapshot(st: object) -> str:
    return json.dumps(st.to_json(), sort_keys=True)  # type: ignore[attr-defined]


def test_random_illegal_actions_are_rejected_without_change() -> None:
    rnd = random.Random(5)
    st = Game(Settings(players=3, seed=2)).new_initial_state()
    kinds = ["pick", "decline", "expand", "conquer", "final", "abandon", "ready", "end", "deploy", "bogus"]
    rejected = illegal = 0
    while not st.is_over():
        la = st.legal_actions()
        for _ in range(5):
            cand = Action(
                rnd.choice(kinds),
                rnd.choice([None, *range(st.game.map.n + 2)]),
                rnd.choice([None, 0, 3, "all", "x", "champion", "beast"]),
            )
            if cand in la:
                continue
            before = snapshot(st)
            with pytest.raises(SmallworldError) as e:
                st.apply(cand)
            # Not an action of this game (an unknown kind, a region that is not there, an argument
            # the kind never takes), or one the rules forbid now, citing the rule.
            if isinstance(e.value, IllegalActionError):
                assert e.value.rule.startswith("§"), e.value
                illegal += 1
            else:
                assert e.value.code == "malformed_action" and e.value.field.startswith("action"), e.value
            assert snapshot(st) == before
            rejected += 1
        st.apply(la[rnd.randrange(len(la))])
    assert rejected > 100 and illegal > 50


def test_malformed_actions_raise_a_clear_error() -> None:
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    before = snapshot(st)
    for bad in (["conquer", "x"], [1, 2], {"kind": None}, "pick", [], ["pick", None, 1.5]):
        with pytest.raises(SmallworldError):
            st.apply(bad)  # type: ignore[arg-type]
    assert snapshot(st) == before


def test_unaffordable_pick_names_the_rule() -> None:
    """§6.3: a player who cannot pay for a combo cannot choose it."""
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    st.seats[st.acting_seat].coins = 2
    assert Action("pick", None, 2) in st.legal_actions()
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="costs 3 VC") as e:
        st.apply(Action("pick", None, 3))
    assert e.value.rule == "§6.3"
    assert snapshot(st) == before


@pytest.mark.parametrize(
    ("setup", "action", "words"),
    [
        ({"hand": 0}, "ready T:2 champion", "a race token from hand must take the champion's place"),
        ({"conquests": 1}, "ready T:2 champion", "before the first conquest of the turn"),
        ({}, "ready T:1 champion", "there is no champion of yours in Harbor"),
        ({}, "ready T:9 champion", "only a troop in a region of your Active race"),
    ],
)
def test_readying_a_troop_names_the_rule_and_why(setup: dict[str, int], action: str, words: str) -> None:
    """§6.2 (AMB-58, AMB-26): taking a troop a region keeps into hand needs a race token in hand to
    take its place, the window before the turn's first conquest, and the troop in that region."""
    from pathlib import Path

    from smallworld import scenario
    from smallworld.engine.api.notation import parse

    where = Path(__file__).parent / "scenarios/powers/championing/ready_no_champion_there_rejected.json"
    data = scenario.load(where)
    data["position"]["seats"][0]["hand"] = setup.get("hand", 2)
    data["position"]["turn"] = {"conquests": setup.get("conquests", 0)}
    st = scenario.build({**data, "actions": []})
    assert (Action("ready", 1, "champion") in st.legal_actions()) == (not setup)
    before = snapshot(st)
    with pytest.raises(IllegalActionError) as e:
        st.apply(parse(st, action))
    assert e.value.rule == "§6.2" and e.value.to_json()["code"] == "illegal_action"
    assert words in str(e.value)
    assert snapshot(st) == before
