"""The store on SQLite and on PostgreSQL: migrations, the action log's uniqueness of (game, ply),
seats taken once."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from smallworld.server.store import Append, Appender, PlyTaken, Store, migrate


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


def test_a_batch_commits_every_action_but_the_one_whose_ply_is_taken(any_db_url: str) -> None:
    # Group commit: several games' actions in one transaction; one of them finds its move already
    # stored, and only that one is refused.
    store = Store(any_db_url)
    _game(store, "g1")
    _game_of(store, "g2")
    _game_of(store, "g3")
    store.append("g2", 0, 0, {"kind": "pick", "arg": 5}, "human")
    errors = store.append_many(
        [
            Append("g1", 0, 0, {"kind": "pick", "arg": 1}, "human"),
            Append("g2", 0, 1, {"kind": "pick", "arg": 2}, "human"),  # ply 0 of g2 is taken
            Append("g3", 0, 0, {"kind": "pick", "arg": 3}, "bot", seat_update={"bank_ms": 7}),
            Append("g1", 1, 1, {"kind": "end"}, "human", result={"scores": [1, 2], "winners": [1]}),
        ]
    )
    assert [type(e) for e in errors] == [type(None), PlyTaken, type(None), type(None)]
    assert [r.action for r in store.actions("g1")] == [{"kind": "pick", "arg": 1}, {"kind": "end"}]
    assert [r.action for r in store.actions("g2")] == [{"kind": "pick", "arg": 5}]  # unchanged
    assert [(r.action, r.by) for r in store.actions("g3")] == [({"kind": "pick", "arg": 3}, "bot")]
    assert store.seats("g3")[0]["bank_ms"] == 7
    g1, g2, g3 = (store.game(g) for g in ("g1", "g2", "g3"))
    assert g1 is not None and (g1["ply"], g1["status"]) == (2, "over")
    assert g2 is not None and g2["ply"] == 1
    assert g3 is not None and g3["ply"] == 1
    store.close()


@pytest.mark.parametrize("inline", [False, True], ids=["thread", "inline"])
def test_the_appender_acknowledges_only_committed_actions(any_db_url: str, inline: bool) -> None:
    # Five writers of one move in one batch: one is committed, the others are told it is taken.
    store = Store(any_db_url)
    _game(store)
    appender = Appender(store, inline=inline)

    async def run() -> list[BaseException | None]:
        writes = [appender.append(Append("g1", 0, 0, {"kind": "pick", "arg": i}, "human")) for i in range(5)]
        return await asyncio.gather(*writes, return_exceptions=True)

    outcomes = asyncio.run(run())
    appender.close()
    assert sum(o is None for o in outcomes) == 1
    assert all(isinstance(o, PlyTaken) for o in outcomes if o is not None)
    won = outcomes.index(None)
    assert [r.action for r in store.actions("g1")] == [{"kind": "pick", "arg": won}]
    store.close()


def _game_of(store: Store, gid: str) -> None:
    store.create_game(
        gid,
        {"edition": "warcraft", "players": 2},
        5,
        {"clock": None},
        [
            {
                "seat": 0,
                "kind": "human",
                "name": "Ann",
                "player_id": "p1",
                "token_hash": f"{gid}a".ljust(64, "0"),
            },
            {"seat": 1, "kind": "bot", "name": "B", "bot": "greedy"},
        ],
    )


def test_a_driver_error_in_an_append_comes_as_sqlalchemys(tmp_path: Path) -> None:
    """The action log is written on the driver's own cursor; what the driver raises there comes out
    as SQLAlchemy's error of the same kind (as from every other statement of the store), which is
    what `resilience.is_outage` and the callers read. Here the table is gone (dropped behind the
    store's back): sqlite3's OperationalError, whose transaction still rolls back cleanly."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_game("g", {"players": 2}, 1, {}, [])
    conn = store.engine.connect()
    with store.engine.begin() as c:
        c.exec_driver_sql("DROP TABLE actions")
    err = store.append_many([Append("g", 0, 0, {"kind": "pick", "arg": 1}, "human")], conn)[0]
    assert isinstance(err, OperationalError) and isinstance(err.orig, sqlite3.OperationalError), repr(err)
    conn.close()
    store.close()
