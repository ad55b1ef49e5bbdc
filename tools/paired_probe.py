"""Issue 30 experiment (reverted in the next commit): how much common random numbers at the root
(`MctsBot(paired=True)`) narrow the standard error of a candidate's difference to greedy's move.

Plays three 2-player greedy games (seeds 11-13) and, at their first four conquest decisions from
round 2 with at least three legal moves, searches 600 paired playouts; prints for every candidate
searched in at least 8 rounds `rounds:paired SE/unpaired SE`.

    SMALLWORLD_BUILD=pure python tools/paired_probe.py
"""

from __future__ import annotations

import math
import random

from smallworld.bots import public_game
from smallworld.bots.greedy import GreedyBot
from smallworld.bots.mcts import MctsBot, _paired_stats
from smallworld.engine import Game, Settings, view_for


def probe(seed: int) -> None:
    g = Game(Settings(players=2, seed=seed))
    st = g.new_initial_state()
    greedy = [GreedyBot(), GreedyBot()]
    for seat, b in enumerate(greedy):
        b.start(public_game(g), seat)
    rng = random.Random(seed)
    searched = 0
    while not st.is_over():
        legal = st.legal_actions()
        seat = st.acting_seat
        if len(legal) >= 3 and st.round >= 2 and searched < 4 and st.phase == "conquer":
            searched += 1
            bot = MctsBot(playouts=600, paired=True, reuse=False)
            bot.start(public_game(g), seat)
            bot.choose(view_for(st, seat), legal, random.Random(1))
            root, diffs, yard = bot.last_root, bot.last_diffs, bot.greedy_choice
            assert root is not None and yard is not None
            y = root.children[yard]
            out = []
            for a, c in root.children.items():
                if a == yard or len(diffs.get(a, {})) < 8:
                    continue
                paired = _paired_stats(list(diffs[a].values()))[1]
                apart = math.sqrt(c.variance() / c.visits + y.variance() / y.visits)
                out.append(f"{len(diffs[a])}:{paired:.3f}/{apart:.3f}")
            print(seed, st.round, len(legal), " ".join(out))
        st.apply(greedy[seat].choose(view_for(st, seat), legal, rng))


if __name__ == "__main__":
    for s in (11, 12, 13):
        probe(s)
