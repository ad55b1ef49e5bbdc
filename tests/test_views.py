"""Hidden information: what each seat may know (§1.3 coins, §3.2 stacks)."""

from __future__ import annotations

import json
import random

from smallworld.engine import Game, Settings, view_for


def test_views_hide_coins_stacks_and_generator() -> None:
    st = Game(Settings(players=3, seed=8)).new_initial_state()
    rnd = random.Random(1)
    for _ in range(40):
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
    full = json.dumps(st.to_json())
    for seat in (0, 1, 2, None):
        v = view_for(st, seat)
        text = json.dumps(v)
        for i, s in enumerate(v["seats"]):
            if i == seat:
                assert s["coins"] == st.seats[i].coins
            else:
                assert s["coins"] is None
        assert "rng" not in v and "rolls" not in v
        assert v["race_stack"] == {"count": len(st.race_stack)}
        assert v["power_stack"] == {"count": len(st.power_stack)}
        assert format(st.rng.state, "016x") not in text
        # the stacks' order is not recoverable from the view
        assert json.dumps(st.race_stack) not in text or len(st.race_stack) < 2
    assert full != json.dumps(view_for(st, None))


def test_coins_are_revealed_when_the_game_ends() -> None:
    """§7: players reveal their coins at the end."""
    st = Game(Settings(players=2, seed=4)).new_initial_state()
    rnd = random.Random(2)
    while not st.is_over():
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
    v = view_for(st, None)
    assert [s["coins"] for s in v["seats"]] == [s.coins for s in st.seats]
    assert v["result"]["winners"]


def test_views_and_clones_share_nothing_with_the_state() -> None:
    """Clients get views, never the state: changing a view (or a clone) never changes the game."""
    st = Game(Settings(players=3, seed=8)).new_initial_state()
    rnd = random.Random(4)
    for _ in range(60):
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
    before = json.dumps(st.to_json(), sort_keys=True)

    def scribble(x: object) -> None:
        if isinstance(x, dict):
            for v in list(x.values()):
                scribble(v)
            x["scribbled"] = 1
        elif isinstance(x, list):
            for v in x:
                scribble(v)
            x.append("scribbled")

    scribble(view_for(st, 0))
    scribble(st.to_json())
    c = st.clone()
    for s in c.seats:
        scribble(s.ext)
    scribble(c.turn.data)
    scribble(c.pending)
    assert json.dumps(st.to_json(), sort_keys=True) == before
