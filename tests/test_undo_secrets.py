"""The undo points' work, made cheaper (smallworld/engine/api/undo.py): `secrets` counts only the parts
of a view that differ from the state and reuses what it counted for other views and states, and
`UndoRun` works out each decision's barrier once. Both must say exactly what the plain definition
says: what a viewer does not see is the multiset of the state's values missing from its view, and a
decision is a barrier when something hidden from some viewer before it is not hidden after it
(warcraft-rules.md §10.1, §6.3: a reveal or a draw from the stacks) or for the plain reasons (§6.10
a die, §6.1 a new turn, §6.9/§6.12 another seat's decision). Random games of both editions, every
number of players, are played decision by decision and both ways compared at every ply."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.undo import BARRIERS, REVEAL, UndoRun, _leaves, _plain_barrier, secrets
from smallworld.engine.api.views import PublicView
from smallworld.engine.model.settings import make_settings
from smallworld.engine.model.state import State

GAMES = [
    (edition, players, seed)
    for seed, (edition, players) in enumerate(
        [("warcraft", 2), ("warcraft", 3), ("warcraft", 5), ("classic", 2), ("classic", 4)]
    )
]


def _plain_secrets(st: State) -> list[Counter[tuple[str, Any]]]:
    """The definition: every leaf of the state's JSON counted, minus every leaf of the view."""
    full: Counter[tuple[str, Any]] = Counter()
    _leaves(state_to_json(st), full, top=True)
    public = PublicView(st)
    out = []
    for viewer in (None, *range(st.game.players)):
        seen: Counter[tuple[str, Any]] = Counter()
        _leaves(public.view(viewer), seen, top=True)
        out.append(full - seen)
    return out


def _plain_report(states: list[State], actions: list[Any]) -> tuple[list[int], str | None]:
    """The undo points of the last state, each barrier worked out from scratch."""
    final = states[-1]
    seat = final.acting_seat
    if final.is_over() or seat != final.turn_seat:
        return [], "seat"
    points = []
    for i in range(len(actions) - 1, -1, -1):
        why = _plain_barrier(states[i], states[i + 1], seat)
        if why is None and any(
            b - a for b, a in zip(_plain_secrets(states[i]), _plain_secrets(states[i + 1]), strict=True)
        ):
            why = REVEAL
        if why is not None:
            return points, why
        points.append(states[i].ply)
    return points, None


def _random_game(edition: str, players: int, seed: int, plies: int) -> list[State]:
    st = Game(make_settings(players, seed, "standard", {}, edition)).new_initial_state()
    rng = random.Random(seed)
    states = [st.clone()]
    while not st.is_over() and st.ply < plies:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
        states.append(st.clone())
    return states


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES)
def test_secrets_count_what_the_plain_definition_counts(edition: str, players: int, seed: int) -> None:
    memo: dict[Any, Any] = {}  # kept from state to state, as a run of decisions keeps it
    hidden_somewhere = 0
    for st in _random_game(edition, players, seed, 160):
        expected = _plain_secrets(st)
        assert secrets(st) == expected, st.ply
        assert secrets(st, PublicView(st), memo) == expected, st.ply
        hidden_somewhere += any(expected)
    assert hidden_somewhere > 0  # the stacks' order at least: the comparison is not of empty counts


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES[:3])
def test_a_run_of_decisions_reports_what_a_replay_from_scratch_does(
    edition: str, players: int, seed: int
) -> None:
    """Each ply's report of one `UndoRun` (pushed the live states as a server pushes them) against the
    points worked out from scratch; a new run begins where the seat to act changes."""
    states = _random_game(edition, players, seed, 140)
    whys: Counter[str | None] = Counter()
    start = 0
    run = UndoRun(states[0])
    for n in range(1, len(states)):
        if states[n - 1].acting_seat != states[n].acting_seat or n - start > 12:
            start, run = n - 1, UndoRun(states[n - 1])
        action = states[n].events  # not replayed: the state after it is given
        run.push(action, states[n])
        report = run.report(PublicView(states[n]))
        expected = _plain_report(states[start : n + 1], [None] * (n - start))
        assert ([p.ply for p in report.points], report.stop) == expected, n
        assert all(p.before is states[p.ply] for p in report.points)
        whys[report.stop] += 1
    assert set(whys) <= {*BARRIERS, None} and len(whys) >= 2
