"""Bots: `Bot.choose(view, legal, rng) -> Action` from a seat's view only (docs/bots.md)."""

from __future__ import annotations

import json
from typing import Any

from smallworld.bots.base import Bot, RandomBot
from smallworld.bots.determinize import Determinizer, determinize, public_game
from smallworld.bots.greedy import GreedyBot
from smallworld.bots.mcts import MctsBot

BOT_NAMES = ("random", "greedy", "mcts", "openspiel-mcts", "learned")
# Bots that take a search budget (`seconds`, `playouts`).
SEARCH_BOTS = ("mcts", "openspiel-mcts", "learned")


def key_json(text: str) -> tuple[str, Any]:
    """`KEY=JSON` split and read: ValueError when either part is missing (json.JSONDecodeError, a
    ValueError too, when the JSON is bad)."""
    key, eq, value = text.partition("=")
    if not key or not eq:
        raise ValueError(text)
    return key, json.loads(value)


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec split into its name and its own options: `mcts` or `mcts:gains=false:exploration=1`
    (each option `KEY=JSON`), so one table can seat two settings of one bot. ValueError names what
    is wrong: an unknown bot, an option without `=`, or a value that is not JSON."""
    name, *parts = spec.split(":")
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
    own: dict[str, Any] = {}
    for part in parts:
        try:
            key, value = key_json(part)
        except json.JSONDecodeError:
            raise ValueError(f"bot {spec!r}: the value in {part!r} is not JSON") from None
        except ValueError:
            hint = "is not KEY=JSON (e.g. mcts:gains=false)"
            raise ValueError(f"bot {spec!r}: option {part!r} {hint}") from None
        own[key] = value
    if own and name not in SEARCH_BOTS:
        raise ValueError(f"bot {spec!r}: {name} takes no options")
    return name, own


def make_bot(spec: str, **options: Any) -> Bot:
    """A fresh bot by name or spec (`parse_bot`); `options` go to the search bots (`seconds`,
    `playouts`), and the spec's own options override them."""
    name, own = parse_bot(spec)
    options = {**options, **own}
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
    raise AssertionError(name)  # parse_bot knows only BOT_NAMES


def is_search_bot(spec: str) -> bool:
    """Whether the bot a spec names takes a search budget."""
    return spec.split(":", 1)[0] in SEARCH_BOTS


__all__ = [
    "BOT_NAMES",
    "SEARCH_BOTS",
    "Bot",
    "Determinizer",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "determinize",
    "is_search_bot",
    "make_bot",
    "parse_bot",
    "public_game",
]
