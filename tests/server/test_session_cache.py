"""A session's row kept a moment for acting (smallworld/server/session_cache.py): a rated seat played
with its session no longer reads the store at every action, and an ending (log-out, password change)
still takes effect at once in the process where it happened, within `hold` seconds elsewhere."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal
from fastapi.testclient import TestClient

from smallworld.server import accounts
from smallworld.server.accounts import SESSION_COOKIE, SessionToken
from smallworld.server.app import create_app
from smallworld.server.errors import ServerError
from smallworld.server.session_cache import SessionCache
from smallworld.server.tokens import token_hash

PW = "correct horse battery"


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, rate=0, socket_rate=0), base_url="http://testserver") as c:
        yield c


def _inside(web: TestClient) -> tuple[Any, BlockingPortal]:
    """The app's service, and the portal that runs its coroutines on the app's event loop."""
    assert web.portal is not None
    return web.app.state.service, web.portal  # type: ignore[attr-defined]


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the store's session reads."""
    seen: list[str] = []
    real = accounts.player_by_session

    def counted(store: Any, h: str) -> Any:
        seen.append(h)
        return real(store, h)

    monkeypatch.setattr(accounts, "player_by_session", counted)
    return seen


def _rated_game(web: TestClient, csrf: str) -> str:
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    r = web.post(
        "/api/games", json={"players": 2, "seats": seats, "rated": True}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 200, r.text
    return str(r.json()["game"])


def test_acting_with_a_session_reads_it_once_a_moment_and_a_log_out_ends_it_at_once(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    csrf = web.post("/api/accounts", json={"name": "Kept", "password": PW}).json()["csrf"]
    session = SessionToken(web.cookies[SESSION_COOKIE])
    gid = _rated_game(web, csrf)
    svc, portal = _inside(web)
    live = portal.call(svc.get, gid)
    svc.sessions.forget()  # what creating the game read is gone
    reads = _reads(monkeypatch)
    # Who may act for seat 0: the session's account, read from the store once for many acts.
    for _ in range(5):
        assert portal.call(svc.authorize, live, 0, session) == 0
    assert len(reads) == 1
    # Anything else about the account reads the store as before.
    assert web.get("/api/account").json()["player"]["name"] == "Kept"
    assert len(reads) == 2
    # Logged out here: the very next act is refused, not `hold` seconds later.
    assert web.post("/api/session/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    with pytest.raises(ServerError) as e:
        portal.call(svc.authorize, live, 0, session)
    assert e.value.code == "bad_token" and "session ended" in str(e.value)


def test_a_password_change_ends_the_other_sessions_kept_here_at_once(web: TestClient) -> None:
    csrf = web.post("/api/accounts", json={"name": "Changer", "password": PW}).json()["csrf"]
    gid = _rated_game(web, csrf)
    svc, portal = _inside(web)
    live = portal.call(svc.get, gid)
    with TestClient(web.app, base_url="http://testserver") as phone:
        phone.post("/api/session", json={"name": "Changer", "password": PW})
        other = SessionToken(phone.cookies[SESSION_COOKIE])
        assert portal.call(svc.authorize, live, 0, other) == 0  # kept now
        r = web.post(
            "/api/account/password",
            json={"password": PW, "new_password": "a new secret"},
            headers={"X-CSRF-Token": csrf},
        )
        assert r.json()["sessions_ended"] == 1
        with pytest.raises(ServerError) as e:
            portal.call(svc.authorize, live, 0, other)
        assert e.value.code == "bad_token"


def test_an_ending_in_another_process_is_seen_within_the_hold(web: TestClient) -> None:
    csrf = web.post("/api/accounts", json={"name": "Elsewhere", "password": PW}).json()["csrf"]
    session = SessionToken(web.cookies[SESSION_COOKIE])
    gid = _rated_game(web, csrf)
    svc, portal = _inside(web)
    live = portal.call(svc.get, gid)
    svc.sessions.hold = 0.3
    assert portal.call(svc.authorize, live, 0, session) == 0
    # Another process ends it: the store says so, this process's memory does not know.
    accounts.touch_session(svc.store, token_hash(session), revoked=time.time())
    assert portal.call(svc.authorize, live, 0, session) == 0  # still the kept row
    time.sleep(0.35)
    with pytest.raises(ServerError) as e:
        portal.call(svc.authorize, live, 0, session)
    assert e.value.code == "bad_token"


def test_a_read_under_way_when_a_session_ends_is_not_kept() -> None:
    cache = SessionCache(hold=60)
    row = {"id": "p1", "session": True, "used": 1.0}
    epoch = cache.epoch  # a read starts
    cache.forget("p1")  # a log-out while it is under way
    cache.keep("h", row, epoch)
    assert cache.get("h") is None
    cache.keep("h", row, cache.epoch)
    got = cache.get("h")
    assert got == row and got is not row  # a copy: a caller's change never reaches the kept row
    cache.keep("t", {"id": "p2", "used": 1.0}, cache.epoch)  # a player token's row: never kept
    assert cache.get("t") is None
    cache.forget("p2")
    assert cache.get("h") == row  # another player's ending leaves this one
    cache.forget("p1")
    assert cache.get("h") is None
