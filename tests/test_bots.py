"""Bots: legal play from views only, determinisation, MCTS budgets (docs/bots.md)."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from smallworld.bots import Bot, Determinizer, make_bot, public_game
from smallworld.bots.greedy import value
from smallworld.engine import Action, Game, Settings, State, view_for
from smallworld.engine.flow import apply_unchecked, legal_actions
from smallworld.sim import GameJob, play_game


class Spy(Bot):
    """Wraps a bot and checks what it is given at every decision."""

    def __init__(self, inner: Bot) -> None:
        super().__init__()
        self.inner = inner
        self.calls = 0

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        assert game.settings.seed == 0  # the public game: no seed to rebuild the shuffles from
        self.inner.start(game, seat)

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(view, dict) and not isinstance(view, State)
        assert "rng" not in view and "rolls" not in view
        assert view["viewer"] == self.seat
        assert all(isinstance(a, Action) for a in legal)
        self.calls += 1
        a = self.inner.choose(view, legal, rng)
        assert a in legal
        return a


def _play(names: list[str], players: int, seed: int, variant: str = "standard", **opts: Any) -> State:
    game = Game(Settings(players=players, seed=seed, variant=variant))
    seen = public_game(game)
    bots = [
        Spy(make_bot(names[i % len(names)], **(opts if names[i % len(names)] == "mcts" else {})))
        for i in range(players)
    ]
    for seat, b in enumerate(bots):
        b.start(seen, seat)
    rngs = [random.Random(seed * 31 + seat) for seat in range(players)]
    st = game.new_initial_state()
    while not st.is_over():
        seat = st.acting_seat
        apply_unchecked(st, bots[seat].choose(view_for(st, seat), legal_actions(st), rngs[seat]))
    assert all(b.calls for b in bots)
    return st


def test_interface_takes_a_view_not_a_state() -> None:
    params = list(inspect.signature(Bot.choose).parameters)
    assert params == ["self", "view", "legal", "rng"]
    hints = inspect.get_annotations(Bot.choose)
    assert hints["view"] == "dict[str, Any]"


@pytest.mark.parametrize("variant", ["standard", "team"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_play_legal_games(players: int, variant: str) -> None:
    st = _play(["greedy", "random"], players, seed=players * 7 + (variant == "team"), variant=variant)
    assert st.result is not None and st.result["winners"]


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "team")])
def test_mcts_plays_legal_games(players: int, variant: str) -> None:
    st = _play(["mcts", "greedy", "random"], players, seed=5, variant=variant, playouts=4)
    assert st.result is not None


def test_many_random_seeds_with_every_bot() -> None:
    for seed in range(6):
        players = 2 + seed % 4
        variant = "team" if seed % 2 else "standard"
        play_game(GameJob(seed, players, 100 + seed, ("greedy", "random", "mcts"), variant, {"playouts": 3}))


def test_mcts_with_a_small_playout_budget_completes_a_two_player_game() -> None:
    res = play_game(GameJob(0, 2, 3, ("mcts", "greedy"), bot_options={"playouts": 20}))
    assert len(res["scores"]) == 2 and res["winners"]


def test_mcts_is_deterministic_given_seed_and_playouts() -> None:
    a = play_game(GameJob(0, 2, 9, ("mcts", "random"), bot_options={"playouts": 8}))
    b = play_game(GameJob(0, 2, 9, ("mcts", "random"), bot_options={"playouts": 8}))
    assert (a["scores"], a["picks"], a["decisions"]) == (b["scores"], b["picks"], b["decisions"])


def test_greedy_beats_random() -> None:
    wins = sum(0 in play_game(GameJob(i, 2, 40 + i, ("greedy", "random")))["winners"] for i in range(4))
    assert wins >= 3


def _midgame(seed: int, players: int = 3, variant: str = "standard", steps: int = 60) -> State:
    st = Game(Settings(players=players, seed=seed, variant=variant)).new_initial_state()
    rnd = random.Random(seed)
    for _ in range(steps):
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
    return st


@pytest.mark.parametrize("variant", ["standard", "team"])
def test_determinisation_keeps_the_view_and_fills_the_hidden_parts(variant: str) -> None:
    st = _midgame(3, players=4, variant=variant)
    seat = st.acting_seat
    view = view_for(st, seat)
    game = public_game(st.game)
    d = Determinizer(view, game).sample(random.Random(1))
    assert d.acting_seat == seat and d.phase == st.phase and d.round == st.round
    assert d.race == st.race and d.tokens == st.tokens
    assert d.seats[seat].coins == st.seats[seat].coins
    assert all(s.coins is not None for s in d.seats)
    assert set(d.legal_actions()) == set(st.legal_actions())
    assert len(d.race_stack) == len(st.race_stack) and len(d.power_stack) == len(st.power_stack)
    if variant == "team":
        assert d.offer is not None and st.offer is not None
        assert {k: len(v) for k, v in d.offer.items()} == {k: len(v) for k, v in st.offer.items()}
    # The determinisation is itself a position that plays on to the end.
    rnd = random.Random(2)
    while not d.is_over():
        la = legal_actions(d)
        apply_unchecked(d, la[rnd.randrange(len(la))])


def test_determinisation_does_not_read_hidden_facts() -> None:
    st = _midgame(11)
    other = st.clone()
    # Change only what the acting seat cannot see: the stack orders, others' coins, the generator.
    other.race_stack.reverse()
    other.power_stack.reverse()
    for i, s in enumerate(other.seats):
        if i != st.acting_seat:
            s.coins += 17
    other.rng.state ^= 0xFFFF
    seat = st.acting_seat
    game = public_game(st.game)
    a = Determinizer(view_for(st, seat), game).sample(random.Random(5)).to_json()
    b = Determinizer(view_for(other, seat), game).sample(random.Random(5)).to_json()
    assert a == b


def test_value_prefers_more_regions() -> None:
    st = _midgame(2, players=2, steps=30)
    me = st.acting_seat
    better = st.clone()
    free = [r for r in range(st.game.map.n) if st.race[r] is None and not (st.game.map.water >> r) & 1]
    race = st.seats[me].active
    if race is None:
        pytest.skip("the seat has no race in this position")
    better.set_region(free[0], race, 1)
    assert value(better, me) > value(st, me)
