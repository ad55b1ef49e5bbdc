"""Property test: random complete games keep every invariant and replay exactly (§1.2, §1.3, §5, §7)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import check_invariants, play_random

from smallworld.engine import Game, Settings
from smallworld.engine.api.record import Record


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_games_keep_invariants_and_replay(players: int, seed: int, choices: int) -> None:
    cfg = Settings(players=players, seed=seed)
    final, log = play_random(cfg, choices, check=True)
    assert final.round == {2: 10, 3: 10, 4: 9, 5: 8}[players]  # §5: the last round by player count
    replayed = Record(cfg, log).replay()
    assert json.dumps(replayed.to_json(), sort_keys=True) == json.dumps(final.to_json(), sort_keys=True)


def test_every_seat_plays_every_round_once() -> None:
    """§5: a round is one turn per player, clockwise from the first player."""
    game = Game(Settings(players=4, seed=11))
    st = game.new_initial_state()
    turns: list[tuple[int, int]] = []
    import random

    rnd = random.Random(3)
    while not st.is_over():
        key = (st.round, st.turn_seat)
        if not turns or turns[-1] != key:
            turns.append(key)
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
    first = turns[0][1]
    expected = [(rnd_, (first + k) % 4) for rnd_ in range(1, 10) for k in range(4)]
    assert turns == expected
    check_invariants(st)


def test_kept_badges_never_come_back_into_the_offer() -> None:
    """AMB-65: a Garrisoned or Marshdweller badge stays beside its In-Decline banner until that race
    leaves play: meanwhile it is neither on offer, stacked nor discarded, and every badge is in
    exactly one place."""
    import random
    from collections import Counter

    from smallworld.engine.rules.losses import badge_kept

    kept_seen = 0
    pool = ["garrisoned", "marshdweller", "farmer", "mining", "ranger", "herbalist", "sailing", "explorer"]
    for players, seed in ((2, 3), (3, 5), (4, 8), (5, 13)):
        game = Game(Settings(players=players, seed=seed, powers=tuple(pool)))
        st = game.new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            la = st.legal_actions()
            st.apply(la[rnd.randrange(len(la))])
            kept = [s.declined_power for s in st.seats if badge_kept(st, s.declined_power)]
            kept_seen += len(kept)
            offer = [c[1] for c in st.row] + st.power_stack + st.power_discard
            assert not set(kept) & set(offer), f"a kept badge is back in the offer: {kept}"
            in_play = [s.power for s in st.seats if s.power] + kept
            assert Counter(offer + in_play) == Counter(game.power_pool), "a badge is lost or doubled"
    assert kept_seen  # the games did decline with those badges
