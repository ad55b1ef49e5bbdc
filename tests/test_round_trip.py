"""An exact round trip: a state rebuilt from its JSON continues exactly as the original, even when
the JSON's keys were sorted or shuffled on the way (a store or a cache may do that)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from smallworld.engine import Game, Settings
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.state import State


def _shuffled(x: Any, rnd: random.Random) -> Any:
    """The same JSON with the keys of every object in a random order."""
    if isinstance(x, dict):
        keys = list(x)
        rnd.shuffle(keys)
        return {k: _shuffled(x[k], rnd) for k in keys}
    if isinstance(x, list):
        return [_shuffled(v, rnd) for v in x]
    return x


def _canonical(st: State) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


@pytest.mark.parametrize(
    ("players", "variant", "seeds"),
    [(2, "standard", range(6)), (3, "standard", range(6)), (4, "team", range(3)), (5, "standard", range(3))],
)
def test_round_trips_at_every_step_change_nothing(players: int, variant: str, seeds: range) -> None:
    """Item 9 of the platform issue: the original and a copy rebuilt from sorted (or shuffled) JSON
    at every step list the same legal actions in the same order, set off the same events and end
    in the same state."""
    for seed in seeds:
        game = Game(Settings(players=players, seed=seed, variant=variant))
        a = game.new_initial_state()
        b = a.clone()
        rnd = random.Random(seed)
        steps = 0
        while not a.is_over():
            data = b.to_json()
            text = json.dumps(data, sort_keys=True) if steps % 2 else json.dumps(_shuffled(data, rnd))
            b = state_from_json(game, json.loads(text))
            assert b.to_json() == data, f"seed {seed} step {steps}: the JSON does not round-trip"
            legal = a.legal_actions()
            assert b.legal_actions() == legal, f"seed {seed} step {steps}: the legal actions differ"
            action = legal[rnd.randrange(len(legal))]
            a.apply(action)
            b.apply(action)
            assert b.events == a.events, f"seed {seed} step {steps} ({action}): other events"
            steps += 1
        assert _canonical(b) == _canonical(a)
        assert a.result == b.result
