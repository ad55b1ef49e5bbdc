"""Evaluate OpenSpiel's MCTSBot against OpenSpiel's uniform random bot on smallworld (docs/rl.md).

    python examples/openspiel_eval.py [GAMES] [SIMULATIONS]

Both bots are OpenSpiel's own and play through `pyspiel.evaluate_bots`, which hands every bot the
true state: this MCTSBot searches the real position, hidden facts and the generator included, so
it knows the coming die rolls. The `openspiel-mcts` bot of `smallworld simulate` runs the same
search from a determinisation of its seat's view instead.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator
from open_spiel.python.bots.uniform_random import UniformRandomBot

import smallworld.env.openspiel  # noqa: F401  (registers the game "smallworld")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(games: int = 20, simulations: int = 20) -> None:
    wins = 0
    t0 = time.perf_counter()
    for i in range(games):
        game = pyspiel.load_game("smallworld", {"players": 2, "seed": i, "returns": "win"})
        seat = i % 2  # MCTS plays each seat in turn
        rng = np.random.RandomState(i)
        mcts = MCTSBot(game, 2.0, simulations, RandomRolloutEvaluator(1, rng), random_state=rng)
        other = UniformRandomBot(1 - seat, rng)
        bots = [mcts, other] if seat == 0 else [other, mcts]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
        wins += returns[seat] > 0
    low, high = wilson(wins, games)
    print(f"MCTSBot ({simulations} simulations) vs uniform random, {games} two-player games:")
    print(f"  MCTSBot won {wins}/{games} = {wins / games:.1%}  95% CI [{low:.1%}, {high:.1%}]")
    print(f"  {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
