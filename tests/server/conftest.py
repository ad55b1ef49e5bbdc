"""Fixtures of the server tests: an app on a fresh SQLite store driven through Starlette's
TestClient (the real app, HTTP and WebSocket, in this process); a real PostgreSQL and Redis started
for the session by tools/test-services.sh; real server processes for the multi-process and crash
tests."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from needs import SERVICES, require

from server.helpers import fresh_pg_database
from smallworld.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh SQLite store; a fresh PostgreSQL database under `helpers.ON_BOTH_STORES`."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return fresh_pg_database(request.getfixturevalue("services")["PG_URL"])


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, rate=0, socket_rate=0)) as c:
        yield c


@pytest.fixture(scope="session")
def services() -> Iterator[dict[str, str]]:
    """PostgreSQL and Redis on 127.0.0.1, started once for the session (and stopped after). A test
    that takes them is marked `postgres` and `redis` (`needs.SERVICES`)."""
    require("postgres", "redis")
    d = tempfile.mkdtemp(prefix="sw-services-")
    script = str(ROOT / "tools" / "test-services.sh")
    out = subprocess.run([script, "start", d], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"tools/test-services.sh could not start PostgreSQL and Redis:\n{out.stderr}")
    urls = dict(line.split("=", 1) for line in out.stdout.split() if "=" in line)
    try:
        yield urls
    finally:
        subprocess.run([script, "stop", d], capture_output=True, timeout=120)
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=SERVICES)])
def any_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each store test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    urls = request.getfixturevalue("services")
    return fresh_pg_database(urls["PG_URL"])
