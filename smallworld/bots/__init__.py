"""Bots: `Bot.choose(view, legal, rng) -> Action` from a seat's view only (docs/bots.md)."""

from __future__ import annotations

from typing import Any

from smallworld.bots.base import Bot, RandomBot
from smallworld.bots.determinize import Determinizer, determinize, public_game
from smallworld.bots.greedy import GreedyBot
from smallworld.bots.mcts import MctsBot

BOT_NAMES = ("random", "greedy", "mcts", "openspiel-mcts", "learned")
# Bots that take a search budget (`seconds`, `playouts`).
SEARCH_BOTS = ("mcts", "openspiel-mcts", "learned")


def make_bot(name: str, **options: Any) -> Bot:
    """A fresh bot by name; `options` go to the search bots (`seconds`, `playouts`)."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "mcts":
        return MctsBot(**options)
    if name == "openspiel-mcts":  # OpenSpiel's MCTSBot: needs the optional open-spiel package
        from smallworld.bots.openspiel_mcts import OpenSpielMctsBot

        return OpenSpielMctsBot(**options)
    if name == "learned":  # MCTS with the value model at its cut-offs: needs numpy (the rl extra)
        from smallworld.bots.learned import LearnedBot

        return LearnedBot(**options)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")


__all__ = [
    "BOT_NAMES",
    "SEARCH_BOTS",
    "Bot",
    "Determinizer",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "determinize",
    "make_bot",
    "public_game",
]
