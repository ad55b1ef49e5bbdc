"""Fixtures of the server tests: an app on a fresh SQLite store, driven through Starlette's
TestClient (the real app, HTTP and WebSocket, in this process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from smallworld.server.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, rate=0, socket_rate=0)) as c:
        yield c
