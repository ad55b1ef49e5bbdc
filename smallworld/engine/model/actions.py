"""Actions: small, hashable decision values.

An action is a `(kind, region, arg)` tuple. `region` is a flat region index of the game's map or
None; `arg` is None, a small int, a string, or (for a whole plan) a tuple. Every kind is declared
(`engine/model/protocol.py`); its JSON form names regions as "SIDE:ID" (`protocol.action_to_json`).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple


class Action(NamedTuple):
    kind: str
    region: int | None = None
    arg: Any = None


class Kind(StrEnum):
    """The action kinds of the core rules (units declare their own). Members are strings, so
    `Action(Kind.END) == Action("end")`."""

    PICK = "pick"  # arg = row position 0..5 (cost = position)
    DECLINE = "decline"
    EXPAND = "expand"
    CONQUER = "conquer"  # region; arg = optional named option (e.g. an artifact) or None
    FINAL = "final"  # final conquest attempt with the reinforcement die
    ABANDON = "abandon"
    READY = "ready"  # region; arg = a troop piece lifted into hand, a race token from hand taking its place
    END = "end"  # end conquests
    DEPLOY = "deploy"  # region; arg None = one token, "all" = every token in hand, a piece = one troop
    PLAN = "plan"  # arg = a whole redeployment: ((region, tokens, ((piece, n), ...)), ...)
    RISE = "rise"  # the In-Decline race that may conquer In Decline plays its own phase first
    SKIP = "skip"  # it does not
    PASS = "pass"  # end the turn (no decline after scoring; or nothing left to pick)


PICK, DECLINE, EXPAND, CONQUER, FINAL = Kind.PICK, Kind.DECLINE, Kind.EXPAND, Kind.CONQUER, Kind.FINAL
ABANDON, READY, END, DEPLOY, PLAN = Kind.ABANDON, Kind.READY, Kind.END, Kind.DEPLOY, Kind.PLAN
RISE, SKIP, PASS = Kind.RISE, Kind.SKIP, Kind.PASS


@cache
def at_regions(kind: str, n: int, arg: Any = None) -> tuple[Action, ...]:
    """`Action(kind, r, arg)` for every region r of an n-region map, built once per process: the
    listings of legal actions hand out these shared tuples (actions are immutable) instead of
    building new ones at every decision."""
    return tuple(Action(kind, r, arg) for r in range(n))
