"""Drawing the sides for a game (rules §3.1): sizes, distinct physical boards, reproducibility."""

from __future__ import annotations

import random

import pytest

from smallworld.boards.loader import load_side
from smallworld.boards.setup import SIZES_BY_PLAYERS, draw_sides


@pytest.mark.parametrize("players", sorted(SIZES_BY_PLAYERS))
@pytest.mark.parametrize("seed", range(20))
def test_sizes_and_distinct_boards(players: int, seed: int) -> None:
    ids = draw_sides(players, random.Random(seed).randrange)
    sides = [load_side(i) for i in ids]
    assert "".join(s.size for s in sides) == SIZES_BY_PLAYERS[players]
    assert len({s.board for s in sides}) == len(sides)


def test_deterministic_for_a_seed() -> None:
    for players in SIZES_BY_PLAYERS:
        runs = {tuple(draw_sides(players, random.Random(7).randrange)) for _ in range(3)}
        assert len(runs) == 1


def test_every_side_can_be_drawn() -> None:
    seen = {s for seed in range(200) for s in draw_sides(5, random.Random(seed).randrange)}
    assert len(seen) == 12


def test_uses_only_randbelow() -> None:
    calls: list[int] = []

    def first(n: int) -> int:
        calls.append(n)
        return 0

    assert draw_sides(4, first) == ["L1a", "M1a", "M2a", "S1a"]
    # Per island: one pick among the free boards, then one among its two sides.
    assert calls == [2, 2, 2, 2, 1, 2, 2, 2]


def test_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="6 players"):
        draw_sides(6, random.Random(0).randrange)
    with pytest.raises(ValueError, match="outside"):
        draw_sides(2, lambda n: n)


def test_render_seed_draws_the_same_table_as_a_game() -> None:
    """§3.1: the CLI's seeded table is the table of the game with that seed."""
    from smallworld.boards.cli import seeded_randbelow
    from smallworld.engine import Game, Settings

    for players in (2, 3, 4, 5):
        for seed in (0, 1, 99):
            game = Game(Settings(players=players, seed=seed))
            assert draw_sides(players, seeded_randbelow(seed)) == [s.id for s in game.map.sides]
