"""What the last action set off (`State.events`), and what a pending prompt asks, in words.

Each event is told by the catalogue of the unit (or the core) that declares its type; each prompt by
its unit's `prompt.<id>`, with the unit's rules card saying why the question comes up. Sentences name
their subject first ("You", "Seat 2"); the bot summary strips the subject when it is the seat the
summary is about (`app.Session.note`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smallworld.engine.model.actions import ABANDON, CONQUER, DECLINE, FINAL, PICK
from smallworld.engine.model.state import State
from smallworld.words.describe import voice
from smallworld.words.voice import Voice

# Core events that the line of the move that set them off already tells (with its cost and dues).
TOLD_BY_MOVE: dict[str, frozenset[str]] = {
    PICK: frozenset({"pick"}),
    DECLINE: frozenset({"decline"}),
    ABANDON: frozenset({"abandon"}),
    CONQUER: frozenset({"conquest", "payment"}),
    FINAL: frozenset({"conquest", "payment"}),
}
NEVER_TOLD = frozenset({"turn", "game_over"})  # the round headers and the final scores tell these


def told(kind: str | None, event: Mapping[str, Any]) -> bool:
    """Whether an event goes without saying after a move of `kind`."""
    t = event.get("type")
    return t in NEVER_TOLD or t in TOLD_BY_MOVE.get(kind or "", ())


def event_text(st: State, e: Mapping[str, Any], v: Voice | None = None) -> str:
    """One event as a sentence, from the catalogue of whoever declares its type."""
    return (v or voice(st.game)).event(e)


def prompt_text(st: State, prompt: Mapping[str, Any], v: Voice | None = None) -> str:
    """What a pending prompt asks, from its unit's `prompt.<id>`."""
    return (v or voice(st.game)).prompt(prompt)


def prompt_why(st: State, prompt: Mapping[str, Any], v: Voice | None = None) -> str:
    """Why the question comes up: the rules card of the unit that asks it."""
    return (v or voice(st.game)).card(str(prompt.get("unit")))


def prompt_rule(st: State, prompt: Mapping[str, Any]) -> str:
    spec = st.game.prompt_specs.get((str(prompt.get("unit")), str(prompt.get("prompt"))))
    return spec.rule if spec is not None else ""
