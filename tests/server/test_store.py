"""The store on SQLite and on PostgreSQL: migrations, the action log's uniqueness of (game, ply),
seats taken once."""

from __future__ import annotations

import threading

import pytest

from smallworld.server.store import PlyTaken, Store, migrate


def _game(store: Store, gid: str = "g1") -> None:
    store.create_player("p1", "Ann", "h" * 64)
    store.create_game(
        gid,
        {"edition": "warcraft", "players": 2},
        2**127 + 3,
        {"clock": None},
        [
            {"seat": 0, "kind": "human", "name": "Ann", "player_id": "p1", "token_hash": "a" * 64},
            {"seat": 1, "kind": "human", "name": "", "player_id": None, "open": True},
        ],
    )


def test_migrations_apply_once_and_again(any_db_url: str) -> None:
    store = Store(any_db_url)
    migrate(store.engine)  # a second run finds nothing to do
    _game(store)
    g = store.game("g1")
    assert g is not None and g["seed"] == 2**127 + 3 and g["status"] == "open"
    store.close()


def test_append_is_unique_per_ply_and_read_back_in_order(any_db_url: str) -> None:
    store = Store(any_db_url)
    _game(store)
    store.append("g1", 0, 0, {"kind": "pick", "arg": 0}, "human")
    store.append("g1", 1, 1, {"kind": "end"}, "bot", seat_update={"bank_ms": 5})
    with pytest.raises(PlyTaken):
        store.append("g1", 1, 0, {"kind": "pass"}, "human")
    rows = store.actions("g1")
    assert [(r.ply, r.seat, r.action, r.by) for r in rows] == [
        (0, 0, {"kind": "pick", "arg": 0}, "human"),
        (1, 1, {"kind": "end"}, "bot"),
    ]
    assert store.game("g1")["ply"] == 2  # type: ignore[index]
    assert store.seats("g1")[1]["bank_ms"] == 5
    assert [r.ply for r in store.actions("g1", since=1)] == [1]
    store.append("g1", 2, 0, {"kind": "end"}, "human", result={"scores": [1, 2], "winners": [1]})
    g = store.game("g1")
    assert g is not None and g["status"] == "over" and g["result"] == {"scores": [1, 2], "winners": [1]}
    store.close()


def test_concurrent_writers_of_one_ply_exactly_one_wins(any_db_url: str) -> None:
    store = Store(any_db_url)
    _game(store)
    wins: list[int] = []
    losses: list[int] = []
    barrier = threading.Barrier(8)

    def write(i: int) -> None:
        barrier.wait()
        try:
            store.append("g1", 0, 0, {"kind": "pick", "arg": i % 6}, "human")
            wins.append(i)
        except PlyTaken:
            losses.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(losses) == 7
    assert [r.action["arg"] for r in store.actions("g1")] == [wins[0] % 6]
    store.close()


def test_a_seat_is_taken_once_and_the_game_starts(any_db_url: str) -> None:
    store = Store(any_db_url)
    _game(store)
    store.create_player("p2", "Bob", "b" * 64)
    store.create_player("p3", "Cid", "c" * 64)
    assert store.take_seat("g1", 1, "p2", "Bob", "d" * 64)
    assert not store.take_seat("g1", 1, "p3", "Cid", "e" * 64)
    assert store.seats("g1")[1]["player_id"] == "p2"
    assert store.game("g1")["status"] == "playing"  # type: ignore[index]
    assert store.games_of_player("p2") == ["g1"]
    store.close()
