"""The derived indexes (engine/model/derived.py): each is its rebuild from scratch, `check` sees the one
out of step, `forget` is the one invalidation of a state's, and the indexes an edition shares by
every game of a process stay within their LRU bounds, so a long process keeps a flat size.

    python tests/test_derived.py --games 20000      # memory of one process over 20,000 games
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script: this checkout's package, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smallworld.engine import Game, Settings
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model import derived
from smallworld.engine.model.derived import Lru
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.settings import make_settings
from smallworld.engine.model.state import Phase, State


def _states(players: int, seed: int, edition: str = "warcraft", games: int = 2) -> Iterator[State]:
    """Every state of a few random games, each just listed (the memo of its listing in use)."""
    for g in range(games):
        st = Game(Settings(players=players, seed=seed + g, edition=edition)).new_initial_state()
        rnd = random.Random(seed + g)
        while not st.is_over():
            la = legal_actions(st)
            yield st
            apply_unchecked(st, la[rnd.randrange(len(la))])


@pytest.mark.parametrize(
    ("players", "seed", "edition"), [(2, 1, "warcraft"), (5, 2, "warcraft"), (3, 3, "classic")]
)
def test_every_kept_index_is_its_rebuild(players: int, seed: int, edition: str) -> None:
    memos = 0
    for st in _states(players, seed, edition):
        derived.check(st)
        memos += derived.listed_attack(st, st.acting_seat, st.ply) is not None
    assert memos > 20  # the memo of a listing was compared with a new Attack


def _conquest_state() -> State:
    for st in _states(3, 4):
        if st.phase == Phase.CONQUER and derived.listed_attack(st, st.acting_seat, st.ply) is not None:
            return st
    raise AssertionError("no conquest step")


def test_check_names_each_index_out_of_step_and_forget_puts_them_right() -> None:
    st = _conquest_state()
    derived.check(st)
    r = next(i for i, race in enumerate(st.race) if race is not None)
    twin = st.clone()
    twin.race[r] = None  # by hand: the region indexes no longer match
    twin.tokens[r] = 0
    with pytest.raises(AssertionError, match="race_mask"):
        derived.check(twin)
    derived.forget(twin)
    derived.check(twin)

    assert st.memo is not None
    st.memo[2].extra ^= 1  # the listing's Attack no longer what the state gives
    with pytest.raises(AssertionError, match="memo"):
        derived.check(st)
    derived.forget(st)
    assert st.memo is None
    derived.check(st)


def test_a_marker_turned_by_hand_is_seen_after_forget() -> None:
    st = Game(Settings(players=3, seed=5)).new_initial_state()
    r, here = next(iter(st.markers.items()))
    assert st.face_up() == ()
    here[0][1] = True  # in place: the face-up markers kept are out of step
    with pytest.raises(AssertionError, match="face-up"):
        derived.check(st)
    derived.forget(st)
    assert [x for x, _u in st.face_up()] == [r]
    derived.check(st)


def test_a_kept_seat_table_out_of_step_is_found() -> None:
    st = _conquest_state()
    seat = st.acting_seat
    table = st.table(st.seats[seat])
    other = next(iter(st.game.units.values()))
    kept = st.seats[seat].hooked
    assert kept is not None
    kept.table = st.game.units_hooked([*table.units, other])
    with pytest.raises(AssertionError, match="hook table"):
        derived.check(st)


def test_the_lru_drops_the_least_recently_used() -> None:
    lru: Lru[str, int] = Lru(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "b" is now the least recently used
    lru.put("c", 3)
    assert list(lru) == ["a", "c"] and lru.get("b") is None and len(lru) == 2


def _decisions(players: int, games: int, seed: int, edition: str = "warcraft") -> int:
    n = 0
    for g in range(games):
        st = Game(make_settings(players, seed + g, "standard", None, edition)).new_initial_state()
        rnd = random.Random(seed + g)
        while st.phase != "over":
            la = legal_actions(st)
            apply_unchecked(st, la[rnd.randrange(len(la))])
            n += 1
    return n


def _bounded(size: int) -> list[tuple[Lru[Any, Any], int]]:
    """Set the shared indexes of both editions to `size` entries; returns what to restore."""
    out = []
    for name in ("warcraft", "classic"):
        ed = get_edition(name)
        for lru in (ed.tables.seat, ed.tables.lists, ed.maps):
            out.append((lru, lru.size))
            lru.size = size
            while len(lru) > size:
                del lru.data[next(iter(lru.data))]
    return out


def test_the_shared_indexes_keep_their_bound_and_the_games_are_the_same() -> None:
    """Tiny bounds make the indexes drop entries all the time: the games do not change, the indexes
    never pass the bound."""
    want = _decisions(4, 12, 40)
    restore = _bounded(3)
    try:
        assert _decisions(4, 12, 40) == want
        ed = get_edition("warcraft")
        assert len(ed.tables.seat) <= 3 and len(ed.tables.lists) <= 3 and len(ed.maps) <= 3
    finally:
        for lru, size in restore:
            lru.size = size


def memory(games: int, edition: str = "warcraft", step: int | None = None) -> Iterator[dict[str, Any]]:
    """Random games of 2 to 5 players in this process, one seed each: every `step` games, the memory
    the process holds (resident, and traced by Python when tracemalloc runs) and the size of each
    shared index."""
    ed = get_edition(edition)
    step = step or max(games // 10, 1)
    for g in range(games):
        players = 2 + g % 4
        st = Game(make_settings(players, 1000 + g, "standard", None, edition)).new_initial_state()
        rnd = random.Random(g)
        while st.phase != "over":
            la = legal_actions(st)
            apply_unchecked(st, la[rnd.randrange(len(la))])
        if (g + 1) % step == 0:
            gc.collect()
            yield {
                "games": g + 1,
                "rss_mb": _rss_mb(),
                "traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 2)
                if tracemalloc.is_tracing()
                else None,
                "seat_tables": len(ed.tables.seat),
                "unit_tables": len(ed.tables.lists),
                "maps": len(ed.maps),
                "adjacency": sum(len(m.adjacency) for m in ed.maps.data.values()),
            }


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def test_memory_stays_flat_once_the_bounded_indexes_are_full() -> None:
    """With small bounds the indexes are full within a few games; from then on the memory Python
    holds does not grow with the games played (unbounded, it grew by about 1.8 MB over the same 75
    games: some 25 KB a game)."""
    restore = _bounded(8)
    tracemalloc.start()
    try:
        rows = list(memory(100, step=25))
    finally:
        tracemalloc.stop()
        for lru, size in restore:
            lru.size = size
    assert rows[-1]["traced_mb"] - rows[0]["traced_mb"] < 0.4, rows  # MB, over 75 games
    assert all(r["seat_tables"] <= 8 and r["unit_tables"] <= 8 and r["maps"] <= 8 for r in rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="memory of one process playing random games")
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--edition", default="warcraft")
    p.add_argument("--trace", action="store_true", help="also the memory traced by Python (slower)")
    args = p.parse_args(argv)
    if args.trace:
        tracemalloc.start()
    for row in memory(args.games, args.edition):
        print(row, flush=True)


if __name__ == "__main__":
    sys.exit(main())
