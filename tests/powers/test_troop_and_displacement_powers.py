"""Random complete games with Beast Master (§9.3), Championing (§9.5), Intimidating (§9.13) and Portal
Mage (§9.17) in play: what position files cannot cover. The rules themselves are checked by the
position files under tests/scenarios/powers/.

Choices lean towards these powers' own actions so that every one of them is taken many times; after
each action every invariant must hold (§1.2 tray and piece counts, §4 one race per region), a clone
must be left untouched by an action applied to it, and the whole game must replay exactly.
"""

from __future__ import annotations

import json
import random

import pytest
from support import check_invariants

from smallworld.engine import Action, Game, Settings
from smallworld.engine.api.serialize import state_from_json

POWERS = (
    "beast_master",
    "championing",
    "intimidating",
    "portal_mage",
    # Others whose pieces these powers meet: Forts (§9.11), Watch Towers (§9.6), tolls (§9.14).
    "garrisoned",
    "defensive",
    "marshdweller",
    "farmer",
)
KINDS = frozenset({"champion", "intimidate", "intimidate_troop", "intimidate_remove", "portal"})


def _play(players: int, seed: int) -> tuple[list[Action], set[str], bool]:
    settings = Settings(players=players, seed=seed, powers=POWERS)
    st = Game(settings).new_initial_state()
    rnd = random.Random(seed)
    log: list[Action] = []
    beasts = False
    while not st.is_over():
        actions = st.legal_actions()
        ours = [a for a in actions if a.kind in KINDS]
        a = rnd.choice(ours) if ours and rnd.random() < 0.6 else rnd.choice(actions)
        if a.kind in KINDS:
            before = json.dumps(st.to_json(), sort_keys=True)
            st.clone().apply(a)
            after = json.dumps(st.to_json(), sort_keys=True)
            assert after == before, f"{a} changed the state it was cloned from"
        st.apply(a)
        log.append(a)
        check_invariants(st)
        beasts = beasts or any(s.held.get("beast") for s in st.seats)
        if len(log) % 40 == 0:
            back = state_from_json(st.game, json.loads(json.dumps(st.to_json())))
            assert back.to_json() == st.to_json()
            assert back.legal_actions() == st.legal_actions()
    replay = Game(settings).new_initial_state()
    for a in log:
        replay.apply(a)
    assert json.dumps(replay.to_json(), sort_keys=True) == json.dumps(st.to_json(), sort_keys=True)
    return log, {a.kind for a in log}, beasts


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (4, 9), (5, 16)])
def test_random_games_keep_invariants_and_replay(players: int, seed: int) -> None:
    """§1.2, §4, §5: complete games with these powers keep every count and replay exactly."""
    _play(players, seed)


def test_random_games_use_every_action() -> None:
    """The games above must go through these powers' actions, or they checked nothing of them."""
    kinds: set[str] = set()
    beasts = False
    for seed in range(12):
        _log, used, held = _play(2 + seed % 4, seed)
        kinds |= used
        beasts = beasts or held
    assert {"champion", "intimidate", "intimidate_remove", "portal"} <= kinds
    assert beasts, "no Beast was ever taken into hand (§9.3)"
