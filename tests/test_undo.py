"""Undo points (smallworld/engine/api/undo.py): which plies the seat to act may go back to.

The position files `tests/scenarios/undo/undo-*.json` and `tests/scenarios/classic/undo/undo-*.json`
(run as rule tests by tests/test_scenarios.py) are played here decision by decision, and the undo
points after each decision are compared with what the rules allow: a seat takes back its own
decisions of its turn, never past a die roll (warcraft-rules.md §6.10, classic-rules.md §5.2), a
reveal (§10.1) or a draw from the stacks (§6.3, classic §5.1), another seat's decision (§6.9,
§6.12) or the start of its turn (§6.1).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from smallworld import scenario
from smallworld.engine.api.game import Game
from smallworld.engine.api.undo import REVEAL, ROLL, SEAT, secrets, undo_report
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State

SCENARIOS = Path(__file__).parent / "scenarios"

# File -> after each of its actions, (the undo points latest first, what stops going further back).
# None as the stop: the undo points reach back to the file's position (the start of the history).
EXPECTED: dict[str, list[tuple[list[int], str | None]]] = {
    # Plain conquests and the end of conquests: each can be taken back (§6.5, §6.6, §6.12).
    "undo/undo-conquests.json": [([10], None), ([11, 10], None), ([12, 11, 10], None)],
    # §6.10: the final attempt rolls the die: neither it nor anything before it comes back.
    "undo/undo-die.json": [([10], None), ([], ROLL), ([12], ROLL)],
    # §10.1: the conquest of Meadow turns up its face-down marker.
    "undo/undo-reveal.json": [([10], None), ([], REVEAL), ([12], REVEAL)],
    # §6.9, §8.14: the intimidation asks the Tauren player (seat 1), whose choice is theirs.
    "undo/undo-defender.json": [([], SEAT), ([], SEAT), ([12], SEAT)],
    # §6.1: the Dwarves' turn begins after the Blood Elves' last decision.
    "undo/undo-new-turn.json": [([], SEAT), ([11], SEAT), ([12, 11], SEAT)],
    # §6.3: the pick draws the next combo from the stacks onto the row.
    "undo/undo-pick.json": [([], REVEAL), ([11], REVEAL), ([12, 11], REVEAL)],
    # The classic edition: the same barriers (classic-rules.md §5.1, §5.2).
    "classic/undo/undo-conquests.json": [([20], None), ([21, 20], None), ([22, 21, 20], None)],
    "classic/undo/undo-die.json": [([20], None), ([], ROLL), ([22], ROLL)],
    "classic/undo/undo-pick.json": [([], REVEAL), ([21], REVEAL), ([22, 21], REVEAL)],
    "classic/undo/undo-new-turn.json": [([], SEAT), ([21], SEAT), ([22, 21], SEAT)],
}


def _play(data: dict[str, Any]) -> tuple[State, list[Any]]:
    start = scenario.build(data)
    st = start.clone()
    actions = []
    for item in data["actions"]:
        a = scenario.to_action(st, item)
        st.apply(a)
        actions.append(a)
    return start, actions


def test_every_undo_position_file_is_listed() -> None:
    files = sorted(p.relative_to(SCENARIOS).as_posix() for p in SCENARIOS.rglob("undo-*.json"))
    assert files == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_undo_points_after_each_decision(name: str) -> None:
    data = scenario.load(SCENARIOS / name)
    start, actions = _play(data)
    got = []
    for n in range(1, len(actions) + 1):
        report = undo_report(start, actions[:n])
        got.append(([p.ply for p in report.points], report.stop))
    assert got == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_going_back_to_an_undo_point_gives_the_position_before_that_decision(name: str) -> None:
    """Replaying the decisions up to an undo point gives the state that decision was taken in:
    the tokens on the board and in hand, the coins, the step, everything."""
    data = scenario.load(SCENARIOS / name)
    start, actions = _play(data)
    report = undo_report(start, actions)
    for point in report.points:
        back = start.clone()
        for a in actions[: point.ply - start.ply]:
            back.apply(a)
        assert back.ply == point.ply
        assert back.acting_seat == point.seat
        assert back.is_legal(point.action), "the undone decision can be taken again"


def test_undo_points_name_the_decisions_undone() -> None:
    data = scenario.load(SCENARIOS / "undo/undo-conquests.json")
    start, actions = _play(data)
    points = undo_report(start, actions).points
    assert [(p.ply, p.seat, p.action) for p in points] == [
        (12, 0, actions[2]),
        (11, 0, actions[1]),
        (10, 0, actions[0]),
    ]


def test_a_face_down_marker_is_a_secret_of_every_viewer_until_revealed() -> None:
    """§10.1: the marker's identity is in no view while it lies face down."""
    data = scenario.load(SCENARIOS / "undo/undo-reveal.json")
    start, actions = _play(data)
    stone = ("str", "meeting_stone")
    assert all(hidden[stone] == 1 for hidden in secrets(start))
    st = start.clone()
    for a in actions[:2]:
        st.apply(a)
    assert all(hidden[stone] == 0 for hidden in secrets(st))


def test_nothing_while_another_seat_decides_or_after_the_end() -> None:
    data = scenario.load(SCENARIOS / "undo/undo-defender.json")
    start, actions = _play(data)
    # After the intimidation the Tauren player (seat 1) decides: it is not their turn to undo.
    report = undo_report(start, actions[:1])
    assert report.points == [] and report.stop == SEAT


def _random_game(seed: int, edition: str, players: int) -> tuple[State, list[Any]]:
    game = Game(Settings.from_json({"edition": edition, "players": players, "seed": seed}))
    st = game.new_initial_state()
    start = st.clone()
    rnd = random.Random(seed)
    actions = []
    while not st.is_over() and len(actions) < 160:
        a = rnd.choice(st.legal_actions())
        st.apply(a)
        actions.append(a)
    return start, actions


@pytest.mark.parametrize(("seed", "edition", "players"), [(3, "warcraft", 3), (11, "classic", 2)])
def test_undo_points_never_cross_a_die_a_reveal_a_pick_or_another_seat(
    seed: int, edition: str, players: int
) -> None:
    """Random games, checked against the events the engine records: an undo point never lies
    before a decision that rolled the die (§6.10), turned up a marker (§10.1), picked a combo
    (§6.3) or began a turn (§6.1), nor before another seat's decision. And a seat in the middle of
    plain conquests can always take back its last one."""
    start, actions = _random_game(seed, edition, players)
    states = [start.clone()]
    for a in actions:
        st = states[-1].clone()
        st.apply(a)
        states.append(st)
    undoable_conquests = 0
    for n in range(1, len(actions) + 1, 3):
        points = undo_report(start, actions[:n]).points
        final = states[n]
        for p in points:
            for i in range(p.ply - start.ply, n):
                before, after = states[i], states[i + 1]
                kinds = {e["type"] for e in after.events}
                assert before.acting_seat == final.acting_seat, f"ply {before.ply}: another seat's decision"
                assert not kinds & {"die", "reveal", "turn", "pick"}, f"ply {before.ply} undone past {kinds}"
                assert actions[i].kind != "pick"
        last = states[n - 1]
        made = {e["type"] for e in final.events}
        if (
            last.acting_seat == final.acting_seat == final.turn_seat
            and made == {"conquest"}
            and not final.is_over()
            and last.rng.state == final.rng.state
        ):
            assert points and points[0].ply == last.ply, "a plain conquest can be taken back"
            undoable_conquests += 1
    assert undoable_conquests > 0, "the game had no plain conquest to check"
