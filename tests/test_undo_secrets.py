"""The undo points' work, made cheaper (smallworld/engine/api/undo.py): `secrets` counts only the parts
of a view that differ from the state and reuses what it counted for other views and states, and
`UndoRun` works out each decision's barrier once. Both must say exactly what the plain definition
says: what a viewer does not see is the multiset of the state's values missing from its view, and a
decision is a barrier when something hidden from some viewer before it is not hidden after it
(warcraft-rules.md §10.1, §6.3: a reveal or a draw from the stacks) or for the plain reasons (§6.10
a die, §6.1 a new turn, §6.9/§6.12 another seat's decision). Random games of both editions, every
number of players, are played decision by decision and both ways compared at every ply. `hidden_parts`
(what the public view replaced, no views compared, as a run of decisions uses it) counts the same as
`secrets` at every ply of whole games, the team variant's included."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.undo import (
    BARRIERS,
    REVEAL,
    UndoRun,
    _leaves,
    _plain_barrier,
    hidden,
    hidden_parts,
    secrets,
)
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


def _random_game(edition: str, players: int, seed: int, plies: int, variant: str = "standard") -> list[State]:
    st = Game(make_settings(players, seed, variant, {}, edition)).new_initial_state()
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
        assert hidden(PublicView(st)) == expected, st.ply  # from what the view hid, no comparing
        hidden_somewhere += any(expected)
    assert hidden_somewhere > 0  # the stacks' order at least: the comparison is not of empty counts


def _check_run(states: list[State]) -> Counter[str | None]:
    """Each ply's report of one `UndoRun` (pushed the live states as a server pushes them) against the
    points worked out from scratch; a new run begins where the seat to act changes."""
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
    return whys


@pytest.mark.parametrize(
    ("edition", "players", "seed", "variant"),
    [(*g, "standard") for g in GAMES] + [("warcraft", 4, 7, "team")],
)
def test_a_run_of_decisions_reports_what_a_replay_from_scratch_does(
    edition: str, players: int, seed: int, variant: str
) -> None:
    _check_run(_random_game(edition, players, seed, 140, variant))


def test_a_hide_replacing_a_redacted_part_is_compared_as_views_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a variant's `hide` replaces a part that `PublicView` redacts itself, `hidden_parts` says
    nothing (None) and a run compares the views instead (`secrets`): the same reports, still."""
    states = _random_game("warcraft", 3, 11, 80)
    variant = type(states[0].game.variant)

    def hide(self: Any, view: dict[str, Any], seat: int | None) -> None:
        view["race_stack"] = {"count": view["race_stack"]["count"], "seen_by": seat}

    monkeypatch.setattr(variant, "hide", hide)
    assert hidden_parts(PublicView(states[-1])) is None
    assert REVEAL in _check_run(states)


@pytest.mark.parametrize(
    ("edition", "variant", "players"),
    [
        ("warcraft", "standard", 3),
        ("warcraft", "standard", 4),
        ("warcraft", "team", 4),
        ("classic", "standard", 3),
    ],
)
def test_what_a_view_hid_counts_what_comparing_views_counts(edition: str, variant: str, players: int) -> None:
    """`hidden` (from what `PublicView` hid, no view compared) against `secrets` (the views compared
    with the state's JSON, itself checked against the plain definition above) at every ply of many
    random games, whole games; and the parts beyond the stacks (face-down markers, a unit's secret
    fields in a seat, the team game's offer) are among those compared."""
    seen = Counter[str]()
    for seed in range(12):
        for st in _random_game(edition, players, 100 + seed, 400, variant):
            public = PublicView(st)
            assert hidden(public) == secrets(st), (seed, st.ply)
            seen["marker"] += any(b is None and a is not None for a, b in public.redacted)
            seen["seat"] += any(e is not None for e in public.seat_ext)
            seen["offer"] += "offer" in public.base
            seen["over"] += st.is_over()
    assert seen["over"], seen
    if edition == "warcraft":  # (the classic edition has neither)
        assert seen["marker"] and seen["seat"], seen
    if variant == "team":
        assert seen["offer"], seen
