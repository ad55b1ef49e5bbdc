"""The coin ledger: the opponent's hidden total (§1.3: each seat starts with 5) followed from public
picks (§6.3) and end-of-turn scores (§6.14)."""

from __future__ import annotations

import random
from typing import Any

from smallworld.bots import GreedyBot, public_game
from smallworld.bots.determinize import Determinizer, estimate_coins
from smallworld.bots.ledger import CoinLedger
from smallworld.bots.mcts import MctsBot
from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.settings import Settings


def _view(
    ply: int,
    rnd: int,
    turn_seat: int,
    active: list[str | None],
    row: list[tuple[str, str, int]],
    events: list[dict[str, Any]] | None = None,
    players: int = 2,
) -> dict[str, Any]:
    return {
        "ply": ply,
        "round": rnd,
        "turn_seat": turn_seat,
        "first_seat": 0,
        "seats": [
            {"coins": 5 if i == 0 else None, "active": active[i], "power": "p_" + str(active[i])}
            for i in range(players)
        ],
        "row": [{"race": r, "power": p, "coins": c} for r, p, c in row],
        "events": events or [],
    }


ROW = [("a", "p_a", 0), ("b", "p_b", 2), ("c", "p_c", 1)]


def test_a_pick_costs_its_place_and_gains_its_coins_and_a_turn_adds_its_score() -> None:
    """§6.3 picks (a coin on each combo above; the coins on the combo taken) and §6.14 scoring."""
    led = CoinLedger(0, 2, 5)
    assert led.update(_view(0, 1, 0, [None, None], ROW)) == {1: 5}  # the opponent has not played
    # Seat 1 took combo "b" (place 1: pays 1, gains the 2 lying on it) and scored 6.
    after = _view(
        9,
        2,
        0,
        ["x", "b"],
        [("a", "p_a", 1), ("c", "p_c", 1)],
        [{"type": "score", "seat": 1, "total": 6}, {"type": "turn", "seat": 0, "round": 2}],
    )
    led.update(_view(4, 1, 0, ["x", None], ROW))  # this seat's own later decision: nothing new
    assert led.update(after) == {1: 5 - 1 + 2 + 6}
    # Seeing the same view again changes nothing.
    assert led.update(after) == {1: 12}


def test_the_second_seat_reads_the_first_seats_opening_pick_from_the_coins_it_left() -> None:
    led = CoinLedger(1, 2, 5)
    first = _view(
        5, 1, 1, ["b", None], [("a", "p_a", 1), ("c", "p_c", 0)], [{"type": "score", "seat": 0, "total": 4}]
    )
    first["seats"][0]["coins"], first["seats"][1]["coins"] = None, 5
    assert led.update(first) == {0: 5 - 1 + 4}


def test_a_turn_that_ended_out_of_sight_stops_the_following() -> None:
    led = CoinLedger(0, 2, 5)
    led.update(_view(0, 1, 0, [None, None], ROW))
    assert led.update(_view(9, 2, 0, ["x", "b"], ROW, [])) == {}  # no score event: lost
    assert led.update(_view(20, 3, 0, ["x", "b"], ROW, [{"type": "score", "seat": 1, "total": 3}])) == {}


def test_more_than_two_seats_follow_nothing() -> None:
    led = CoinLedger(0, 3, 5)
    assert led.update(_view(0, 1, 0, [None, None, None], ROW, players=3)) == {}


def test_the_ledger_beats_the_board_estimate_in_real_games_and_feeds_the_determinizer() -> None:
    """Greedy against greedy, 2 players: late in the game the followed total is much closer to the
    hidden one than `estimate_coins` (powers that pay coins in the middle of a turn, unseen, keep it
    from being exact)."""
    led_err: list[int] = []
    est_err: list[int] = []
    for seed in range(6):
        game = Game(Settings(players=2, seed=seed))
        seen = public_game(game)
        bots = [GreedyBot(), GreedyBot()]
        ledgers = [CoinLedger(i, 2, 5) for i in range(2)]
        for i, b in enumerate(bots):
            b.start(seen, i)
        rng = random.Random(seed)
        st = game.new_initial_state()
        while not st.is_over():
            s = st.acting_seat
            view = view_for(st, s)
            coins = ledgers[s].update(view)
            if st.round >= 7:
                truth = st.seats[1 - s].coins
                led_err.append(abs(coins[1 - s] - truth))
                est_err.append(abs(estimate_coins(view, 1 - s, seen) - truth))
                assert Determinizer(view, seen, coins).sample(rng).seats[1 - s].coins == coins[1 - s]
            apply_unchecked(st, bots[s].choose(view, legal_actions(st), rng))
    assert sum(led_err) * 2 < sum(est_err)


def test_the_mcts_bot_keeps_its_ledger_in_its_memory() -> None:
    game = Game(Settings(players=2, seed=4))
    bot = MctsBot(playouts=2, coin_ledger=True)
    bot.start(public_game(game), 0)
    st = game.new_initial_state()
    while st.round < 3:
        s = st.acting_seat
        la = legal_actions(st)
        a = bot.choose(view_for(st, 0), la, random.Random(1)) if s == 0 else la[0]
        apply_unchecked(st, a)
    memory = bot.memory()
    again = MctsBot(playouts=2, coin_ledger=True)
    again.start(public_game(game), 0)
    again.recall(memory)
    assert again.ledger is not None and bot.ledger is not None
    assert again.ledger.to_json() == bot.ledger.to_json() and again.ledger.coins
    assert MctsBot(playouts=2).memory() == {}  # off by default
