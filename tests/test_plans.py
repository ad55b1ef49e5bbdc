"""Whole-plan decisions (§6.12, §6.9): a complete redeployment or withdrawn-token placement sent as
one action, checked as a whole and carried out as the step actions would."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from smallworld.engine import Game, IllegalActionError, Settings
from smallworld.engine.flow.plans import current_plan, plan_action
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.protocol import action_to_json
from smallworld.engine.model.state import State


def _core(st: State) -> dict[str, Any]:
    """The state without what differs between one plan and its steps: the decision counter and
    the last action's events."""
    data = st.to_json()
    data.pop("ply")
    data.pop("events")
    return data


def _redeployments(players: int, seed: int) -> list[State]:
    """Every redeployment or withdrawn-token placement met in a random game, as a state."""
    st = Game(Settings(players=players, seed=seed)).new_initial_state()
    rnd = random.Random(seed)
    out = []
    while not st.is_over():
        if st.phase in ("redeploy", "withdrawn") and not st.pending:
            out.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rnd.randrange(len(legal))])
    return out


def _steps_to_plan(st: State, rnd: random.Random) -> tuple[State, Action]:
    """Play random deploy steps of the seat to act until its placement is over; the plan that
    names the same final counts."""
    seat, phase = st.acting_seat, st.phase
    race = st.seats[seat].active
    regions = list(bits(st.occupied_mask(race)))
    after = st.clone()
    while after.acting_seat == seat and after.phase == phase and not after.pending:
        legal = after.legal_actions()
        after.apply(legal[rnd.randrange(len(legal))])
    final = {}
    for r in regions:
        troops = {k: n for k, n in (after.pieces[r] or {}).items() if after.game.pieces[k].troop}
        final[r] = (after.tokens[r], troops)
    return after, plan_action(st, final)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_a_plan_does_what_its_steps_do(players: int, seed: int) -> None:
    rnd = random.Random(seed)
    checked = 0
    for st in _redeployments(players, seed)[::2]:
        after, plan = _steps_to_plan(st, rnd)
        game = st.game
        ply = st.ply
        st.apply(json.loads(json.dumps(action_to_json(game, plan))), seat=st.acting_seat)
        assert _core(st) == _core(after)
        assert st.ply == ply + 1  # one decision
        checked += 1
    assert checked > 5


def _placement() -> State:
    for st in _redeployments(3, 2):
        s = st.seats[st.acting_seat]
        if st.phase == "redeploy" and s.hand >= 2 and st.occupied_mask(s.active).bit_count() >= 2:
            return st
    raise AssertionError("no redeployment with 2 tokens and 2 regions in this game")


def _refused(st: State, plan: Any, words: str) -> None:
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError) as e:
        st.apply({"kind": "plan", "arg": plan})
    assert e.value.rule == "§6.12" and words in str(e.value), e.value
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_plans_that_break_a_rule_change_nothing() -> None:
    st = _placement()
    seat = st.acting_seat
    m = st.game.map
    mine = current_plan(st, seat)
    first, second = list(mine)[:2]
    hand = st.seats[seat].hand
    ref = m.ref
    _refused(st, {ref(first): {"tokens": mine[first][0] + hand - 1}}, "must be placed")  # one left in hand
    _refused(st, {ref(first): {"tokens": mine[first][0] + hand + 1}}, "more than")
    _refused(st, {ref(first): {"tokens": 0}}, "can only add")
    other = next(r for r in range(m.n) if r not in mine)
    _refused(st, {ref(other): {"tokens": hand}}, "not a region of your race")
    # The whole hand split over two regions is fine.
    st.apply(
        {
            "kind": "plan",
            "arg": {
                ref(first): {"tokens": mine[first][0] + 1},
                ref(second): {"tokens": mine[second][0] + hand - 1},
            },
        }
    )
    assert st.tokens[first] == mine[first][0] + 1 and st.tokens[second] == mine[second][0] + hand - 1


def test_a_plan_outside_a_redeployment_is_refused() -> None:
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    with pytest.raises(IllegalActionError) as e:
        st.apply({"kind": "plan", "arg": {st.game.map.ref(0): {"tokens": 1}}})
    assert e.value.rule == "§6.12"


def test_plans_are_never_listed() -> None:
    """Search and learning code see the steps only (the benchmark's games do not change)."""
    for st in _redeployments(2, 5):
        assert all(a.kind != "plan" for a in st.legal_actions())
