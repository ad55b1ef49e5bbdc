"""The schema's migrations: several servers started at once on an empty database all come up (the
migrations run under a lock), and the migrated database is exactly what `schema.py` declares."""

from __future__ import annotations

import itertools
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from needs import SERVICES
from sqlalchemy import insert, select

from server.helpers import ServerProcess, fresh_pg_database
from smallworld.server import schema as t
from smallworld.server.app import create_app
from smallworld.server.namekey import name_key
from smallworld.server.schema import metadata
from smallworld.server.store import Store, make_engine, migrate
from smallworld.server.tokens import token_hash

STARTS = 1  # rounds of three processes: without the lock the race was lost in the first round on both stores


def _empty_db(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return fresh_pg_database(request.getfixturevalue("services")["PG_URL"])


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=SERVICES)])
@pytest.mark.slow  # three `smallworld serve` processes at once
def test_three_servers_started_together_on_an_empty_database_all_come_up(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    for n in range(STARTS):
        where = tmp_path / str(n)
        where.mkdir()
        db = _empty_db(kind, where, request)
        logs = [where / f"s{i}.log" for i in range(3)]
        with ThreadPoolExecutor(3) as pool:
            futures = [pool.submit(ServerProcess, db, None, log) for log in logs]
        started: list[ServerProcess] = []
        errors: list[str] = []
        for f, log in zip(futures, logs, strict=True):
            try:
                started.append(f.result())
            except RuntimeError as e:
                errors.append(f"{e}: {log.read_text()[-2000:]}")
        try:
            assert not errors, f"round {n}: " + "\n".join(errors)
            # Each serves the one schema: a game made through one is read through the others.
            seats = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
            made = httpx.post(started[0].url + "/api/games", json={"players": 2, "seats": seats})
            gid = made.json()["game"]
            for s in started[1:]:
                assert httpx.get(f"{s.url}/api/games/{gid}").json()["game"] == gid
        finally:
            for s in started:
                s.stop()


def test_the_migrated_database_is_what_schema_py_declares(any_db_url: str) -> None:
    store = Store(any_db_url)
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    store.close()
    assert diff == [], list(itertools.islice(diff, 10))


def test_tokens_issued_before_the_upgrade_count_as_used_at_it(any_db_url: str) -> None:
    """0002 adds when each token was last used; a database made by 0001 keeps every token working
    (each counts as used at the upgrade, so none expires for the idle time after it)."""
    engine = make_engine(any_db_url)
    migrate(engine, "0001")
    long_ago = time.time() - 400 * 86400
    with engine.begin() as c:
        c.execute(insert(t.players).values(id="p1", name="Ann", token_hash="h" * 64, created=long_ago))
        c.execute(
            insert(t.games).values(
                id="g1",
                settings="{}",
                seed="1",
                status="playing",
                ply=0,
                meta="{}",
                created=long_ago,
                updated=long_ago,
            )
        )
        common = {"game_id": "g1", "open": False, "away": False}
        ann = {"kind": "human", "name": "Ann", "player_id": "p1", "token_hash": "a" * 64}
        c.execute(insert(t.seats).values(seat=0, **ann, **common))
        c.execute(insert(t.seats).values(seat=1, kind="bot", name="bot", bot="greedy", **common))
    engine.dispose()
    before = time.time()
    store = Store(any_db_url)
    player = store.player_by_hash("h" * 64)
    assert player is not None and player["used"] >= before and player["revoked"] is None
    assert store.seats("g1")[0]["token_used"] >= before
    assert store.seats("g1")[1]["token_used"] is None  # a bot's seat has no token
    store.close()


def test_the_accounts_migration_keeps_every_game_and_player(any_db_url: str) -> None:
    """0004 (accounts, ratings, quick games, tournaments) upgrades a store of the version before it
    with its players, games, seats and actions intact: each anonymous player can then claim an
    account and keeps its games (docs/players.md)."""
    engine = make_engine(any_db_url)
    migrate(engine, "0002")
    now = time.time()
    with engine.begin() as c:
        c.execute(insert(t.players).values(id="p1", name="Ann", token_hash="h" * 64, created=now, used=now))
        c.execute(
            insert(t.games).values(
                id="g1",
                settings='{"players": 2}',
                seed="1f",
                status="over",
                ply=1,
                meta='{"title": "old"}',
                result='{"scores": [3, 1], "winners": [0]}',
                created=now,
                updated=now,
            )
        )
        common = {"game_id": "g1", "open": False, "away": False}
        c.execute(insert(t.seats).values(seat=0, kind="human", name="Ann", player_id="p1", **common))
        c.execute(insert(t.seats).values(seat=1, kind="bot", name="bot", bot="greedy", **common))
        c.execute(
            insert(t.actions).values(
                game_id="g1", ply=0, seat=0, action='{"kind": "pick", "arg": 0}', by="human", created=now
            )
        )
    engine.dispose()
    store = Store(any_db_url)
    try:
        p = store.player_by_hash("h" * 64)
        assert p is not None and p["name"] == "Ann" and p["name_key"] is None and p["password_hash"] is None
        g = store.game("g1")
        assert g is not None and g["status"] == "over" and g["meta"] == {"title": "old"}
        seats = store.seats("g1")
        assert [s["name"] for s in seats] == ["Ann", "bot"] and seats[0]["abandoned"] is None
        assert [a.action for a in store.actions("g1", 0)] == [{"kind": "pick", "arg": 0}]
    finally:
        store.close()


def test_the_log_in_limits_migration_keeps_every_account_and_its_sessions(any_db_url: str) -> None:
    """0005 (failed log-ins counted in the store) upgrades a store of 0004 with its accounts and
    sessions intact: an account logs in with its password, a session still opens it, and its failed
    log-ins are counted in the new table."""
    engine = make_engine(any_db_url)
    migrate(engine, "0004")
    now = time.time()
    pw_hash = PasswordHasher().hash("correct horse battery")
    with engine.begin() as c:
        account = {"name_key": name_key("Ann"), "password_hash": pw_hash, "account": now}
        c.execute(
            insert(t.players).values(
                id="p1", name="Ann", token_hash="h" * 64, created=now, used=now, **account
            )
        )
        c.execute(
            insert(t.sessions).values(token_hash=token_hash("s" * 43), player_id="p1", created=now, used=now)
        )
    engine.dispose()
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0), base_url="http://testserver") as web:
        web.cookies.set("sw_session", "s" * 43)
        assert web.get("/api/account").json()["player"] == {"id": "p1", "name": "Ann"}
        web.cookies.clear()
        wrong = web.post("/api/session", json={"name": "ann", "password": "not the password"})
        assert wrong.json()["code"] == "bad_login"
        r = web.post("/api/session", json={"name": "ann", "password": "correct horse battery"})
        assert r.status_code == 200 and r.json()["player"]["id"] == "p1", r.text
        store: Store = web.app.state.service.store  # type: ignore[attr-defined]
        with store.engine.connect() as c:
            assert len(c.execute(select(t.login_failures)).all()) == 1  # the address's failure stays
