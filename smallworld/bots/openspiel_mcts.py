"""OpenSpiel's own MCTS bot (`open_spiel.python.algorithms.mcts.MCTSBot` with its random rollout
evaluator) playing a seat of smallworld (docs/bots.md, docs/rl.md).

The bot sees what every bot sees, its view and the legal actions: at each decision it samples one
determinisation of the view (`bots.determinize`, with a fresh generator for the dice), wraps it as
a state of the OpenSpiel game (`env.openspiel`) and lets OpenSpiel's MCTSBot search from there with
its defaults (UCT, random rollouts to the end of the game, MCTS-Solver backups) and the game's
`returns="win"` (+1 / -1), the scale its exploration constant `uct_c = 2` is meant for.

Budget: `playouts` simulations per decision (at least 2), or `seconds` per decision. MCTSBot counts
simulations only, so a time budget becomes a number of simulations from the seconds per
simulation measured at this seat's previous search (the first search is a short probe): the
time per decision matches the budget on average, not decision by decision.

Needs the optional dependency open-spiel (`pip install 'smallworld[rl]'`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from smallworld.bots.base import Bot
from smallworld.bots.determinize import Determinizer
from smallworld.engine.api.game import Game
from smallworld.engine.model.actions import Action

PROBE_SIMULATIONS = 4  # the first timed search, before any seconds per simulation are known
# MCTSBot's first simulation only evaluates the root; its children exist from the second on.
MIN_SIMULATIONS = 2
MAX_SIMULATIONS = 100_000


class OpenSpielMctsBot(Bot):
    name = "openspiel-mcts"

    def __init__(
        self,
        seconds: float | None = None,
        playouts: int | None = 200,
        uct_c: float = 2.0,
        rollouts: int = 1,
    ) -> None:
        super().__init__()
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            raise RuntimeError(
                "the openspiel-mcts bot needs the optional dependency open-spiel: "
                "pip install 'smallworld[rl]'"
            ) from None
        self.seconds = seconds
        self.playouts = playouts if seconds is None else None
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.last_iterations = 0
        self.searches = 0
        self.search_seconds = 0.0  # time spent in decisions with a search (for measurements)
        self._per_sim: float | None = None
        self._spiel: Any = None

    def start(self, game: Game, seat: int) -> None:
        from smallworld.env.openspiel import SmallWorldGame

        super().start(game, seat)
        self._spiel = SmallWorldGame.for_engine(game, returns="win")

    def _simulations(self) -> int:
        if self.seconds is None:
            return max(MIN_SIMULATIONS, self.playouts or 1)
        if self._per_sim is None:
            return PROBE_SIMULATIONS
        return max(MIN_SIMULATIONS, min(MAX_SIMULATIONS, int(self.seconds / self._per_sim)))

    def choose(self, view: dict[str, Any], legal_in: Sequence[Action], rng: random.Random) -> Action:
        import numpy as np
        from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

        legal = list(legal_in)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        t0 = time.perf_counter()
        if self._spiel is None:
            raise RuntimeError(f"{self.name}: start(game, seat) was not called")
        state = self._spiel.state_from(Determinizer(view, self._game()).sample(rng))
        sims = self._simulations()
        evaluator = RandomRolloutEvaluator(
            n_rollouts=self.rollouts, random_state=np.random.RandomState(rng.getrandbits(32))
        )
        bot = MCTSBot(
            self._spiel, self.uct_c, sims, evaluator, random_state=np.random.RandomState(rng.getrandbits(32))
        )
        index = bot.step(state)
        spent = time.perf_counter() - t0
        self.last_iterations = sims
        self.searches += 1
        self.search_seconds += spent
        # Rollouts run to the end of the game, so they shorten as it goes on: the latest search
        # (overheads included) predicts the next one best. An average of earlier searches
        # overestimated and left about a fifth of the budget unused.
        self._per_sim = spent / sims
        codes = self._spiel.codec.encode_all(legal)
        for a, i in codes.items():
            if i == index:
                return a
        # The determinisation listed an action the real position does not have (legality that
        # depends on hidden facts): fall back to the first legal action.
        return legal[0]
