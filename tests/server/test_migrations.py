"""The schema's migrations: several servers started at once on an empty database all come up (the
migrations run under a lock), and the migrated database is exactly what `schema.py` declares."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from server.helpers import ServerProcess, fresh_pg_database
from smallworld.server.schema import metadata
from smallworld.server.store import Store

STARTS = 3  # rounds of three processes: the race lost 2 of 3 rounds before the lock


def _empty_db(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return fresh_pg_database(request.getfixturevalue("services")["PG_URL"])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
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
