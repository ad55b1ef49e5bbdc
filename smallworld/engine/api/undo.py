"""Undo within a turn: the plies the seat to act may go back to (issue 28, "Undo where it is safe").

A player may take back their own decisions of the turn under way, one after the other from the
last, as long as taking one back hides nothing that somebody has learnt and takes back nothing
that somebody else decided. So the decision at ply p can be undone, and ply p is an *undo point*,
when it and every later decision are the acting seat's own and none of them is a *barrier*:

- `ROLL`: it used the game's randomness: the reinforcement die of a final attempt (§6.10, classic
  §5.2), a shuffle or a random draw (a Goblin stack, §8.7; the Well of Eternity's fallback, §10.3).
  Found by the generator's state (`State.rng`) or the scripted rolls (`State.rolls`) changing;
- `REVEAL`: something hidden from a viewer became known to that viewer or left the game: a
  face-down marker turned up by a race entering its region (§10.1), the next banner and badge
  drawn from the stacks onto the row by a pick (§6.3, classic §5.1), a hidden bomb resolved. Found
  by comparing, for the spectator and for every seat, what the state holds and that viewer's view
  does not (`views.PublicView`): the same rules of secrecy as every view, with no list of units;
- `SEAT`: it was another seat's decision (a defender's regroup or withdrawn redeployment, §6.9,
  §6.12; a prompt answered by another seat);
- `TURN`: a turn began with it (§6.1): nothing before the start of the turn is ever undone.

The coin totals that views hide are not counted as secrets: a decision of the seat changes only
what the seat itself knows of them. The engine decides nothing here about who may undo (a rated
game, a bot's seat): that is the host's (server/undo.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.views import PublicView
from smallworld.engine.model.state import State

ROLL = "roll"
REVEAL = "reveal"
SEAT = "seat"
TURN = "turn"
BARRIERS = (ROLL, REVEAL, SEAT, TURN)

# Parts of the state's JSON that are no hidden information: what the last action set off, prompts
# (decisions asked for, not facts), the generator (ROLL watches it) and the ply.
_NOT_SECRETS = frozenset({"events", "pending", "rng", "rolls", "ply", "viewer", "result"})


@dataclass(frozen=True)
class UndoPoint:
    """Going back to `ply`: the position before `action`, the first of the decisions undone
    (`before`: that position, for the words of the decision; a state of its own)."""

    ply: int
    seat: int
    action: Any
    before: State | None = field(default=None, compare=False, repr=False)


def _leaves(value: Any, out: Counter[tuple[str, Any]], top: bool = False, seat: bool = False) -> None:
    """Count every scalar of a JSON value (keys left out), typed so that True and 1 differ."""
    if isinstance(value, dict):
        for k, v in value.items():
            if top and k in _NOT_SECRETS:
                continue
            if seat and k == "coins":
                continue
            if top and k == "seats" and isinstance(v, list):
                for s in v:
                    _leaves(s, out, seat=True)
                continue
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    elif value is not None:
        out[(type(value).__name__, value)] += 1


def secrets(st: State) -> list[Counter[tuple[str, Any]]]:
    """What each viewer does not see of `st` (the spectator first, then each seat), as the multiset
    of the state's values that are missing from that viewer's view."""
    full: Counter[tuple[str, Any]] = Counter()
    _leaves(state_to_json(st), full, top=True)
    public = PublicView(st)
    out = []
    for viewer in (None, *range(st.game.players)):
        seen: Counter[tuple[str, Any]] = Counter()
        _leaves(public.view(viewer), seen, top=True)
        out.append(full - seen)
    return out


def _plain_barrier(before: State, after: State, seat: int) -> str | None:
    """The barriers that need no view: another seat's decision, a new turn, randomness."""
    if before.acting_seat != seat or before.turn_seat != seat:
        return SEAT
    if (
        after.turn_seat != seat
        or after.round != before.round
        or any(e.get("type") == "turn" for e in after.events)
    ):
        return TURN
    if after.rng.state != before.rng.state or len(after.rolls) != len(before.rolls):
        return ROLL
    return None


def _revealed(
    hidden_before: list[Counter[tuple[str, Any]]], hidden_after: list[Counter[tuple[str, Any]]]
) -> bool:
    """Whether something hidden from some viewer before is no longer hidden from it (or is gone)."""
    return any(b - a for b, a in zip(hidden_before, hidden_after, strict=True))


def barrier(before: State, after: State, seat: int) -> str | None:
    """Why `seat` may not go back before the decision that led from `before` to `after` (one of
    `BARRIERS`), or None when it may."""
    why = _plain_barrier(before, after, seat)
    if why is None and _revealed(secrets(before), secrets(after)):
        why = REVEAL
    return why


@dataclass(frozen=True)
class UndoReport:
    """The undo points of the seat to act, latest first, and what stops going further back (a
    `BARRIERS` name, or None when the decisions reach back to the start given)."""

    points: list[UndoPoint]
    stop: str | None


def undo_report(start: State, actions: Sequence[Any]) -> UndoReport:
    """Play `actions` (protocol JSON or `Action`s) from `start` (left as it is) and say which plies
    the seat to act at the end may go back to. None while the game is over or while the seat to act
    is not the one whose turn it is (a defender decides: it undoes nothing of another's turn)."""
    states = [start.clone()]
    for a in actions:
        st = states[-1].clone()
        st.apply(a)
        states.append(st)
    final = states[-1]
    seat = final.acting_seat
    if final.is_over() or seat != final.turn_seat:
        return UndoReport([], SEAT)
    points: list[UndoPoint] = []
    hidden_after: list[Counter[tuple[str, Any]]] | None = None
    for i in range(len(actions) - 1, -1, -1):
        before, after = states[i], states[i + 1]
        why = _plain_barrier(before, after, seat)
        if why is None:
            if hidden_after is None:
                hidden_after = secrets(after)
            hidden_before = secrets(before)
            if _revealed(hidden_before, hidden_after):
                why = REVEAL
            hidden_after = hidden_before
        if why is not None:
            return UndoReport(points, why)
        points.append(UndoPoint(before.ply, seat, actions[i], before))
    return UndoReport(points, None)


def undo_points(start: State, actions: Sequence[Any]) -> list[UndoPoint]:
    """The plies the seat to act after `actions` (played from `start`) may go back to, latest first:
    `undo_report(...).points`."""
    return undo_report(start, actions).points
