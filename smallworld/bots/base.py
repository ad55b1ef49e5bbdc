"""The bot interface: a bot sees only its seat's view and the legal actions, never the State."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.model.actions import Action


class Bot:
    """Base class. `start` is called once per game with the public game (`public_game`: no seed)
    and the bot's seat; `choose` once per decision of that seat."""

    name = "bot"

    def __init__(self) -> None:
        self.game: Game | None = None
        self.seat = 0

    def start(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        raise NotImplementedError

    def memory(self) -> dict[str, Any]:
        """What the bot remembers between decisions, as JSON, so a saved game resumes with the same
        choices (`recall` puts it back); a bot that remembers nothing returns {}."""
        return {}

    def recall(self, memory: dict[str, Any]) -> None:
        """Restore what `memory` returned."""

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError(f"{self.name}: start(game, seat) was not called")
        return self.game


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
