"""Accounts (issue 29, item 1): sign up, log in on another browser, log out, claim an anonymous
player with its games, change the password, unique names that cannot be mistaken for each other,
CSRF and log-in limits. Each test drives the real app through Starlette's TestClient (a browser:
it keeps cookies); another on the same server (`helpers.another_browser`) is a second device."""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from server.helpers import ON_BOTH_STORES, ServerProcess, another_browser, fresh_pg_database
from smallworld.server import schema
from smallworld.server.accounts import LOGIN_WINDOW, Failures
from smallworld.server.app import create_app
from smallworld.server.errors import ServerError
from smallworld.server.namekey import name_key
from smallworld.server.store import Store

PW = "correct horse battery"
BOTS = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def app(db_url: str):  # type: ignore[no-untyped-def]
    return create_app(db_url, rate=0, socket_rate=0)


@pytest.fixture
def web(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def _device(web: TestClient) -> contextlib.AbstractContextManager[TestClient]:
    """A second device of the player (another browser) on the server `web` is a browser of."""
    return another_browser(web)


def _sign_up(c: TestClient, name: str = "Alice", pw: str = PW, **headers: str) -> dict:  # type: ignore[type-arg]
    r = c.post("/api/accounts", json={"name": name, "password": pw}, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def test_names_that_look_alike_share_one_key() -> None:
    same = ["Alice", "alice", "ALICE", "\u0410lice", "Alicé", "AIice", "A1ice", "Ａｌｉｃｅ"]
    assert {name_key(n) for n in same} == {name_key("Alice")}
    assert name_key("Bob") == name_key("B0B")
    assert len({name_key(n) for n in ["Alice", "Alina", "Bob", "Thrall", "Jaina"]}) == 5


@ON_BOTH_STORES
def test_sign_up_logs_in_and_the_session_cookie_is_httponly_and_samesite(web: TestClient) -> None:
    r = web.post("/api/accounts", json={"name": "Alice", "password": PW})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["player"]["name"] == "Alice" and body["account"] is True and body["csrf"]
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("sw_session="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower() and "Path=/" in session
    csrf = next(c for c in cookies if c.startswith("sw_csrf="))
    assert "HttpOnly" not in csrf
    me = web.get("/api/account").json()
    assert me == {
        "player": body["player"],
        "account": True,
        "csrf": body["csrf"],
        "email": None,
        "digest": False,
        "lang": "en",
    }


@ON_BOTH_STORES
def test_a_second_device_logs_in_and_sees_and_plays_the_accounts_games(web: TestClient) -> None:
    first = _sign_up(web)
    made = web.post("/api/games", json={"players": 2, "seats": BOTS}, headers={"X-CSRF-Token": first["csrf"]})
    assert made.status_code == 200, made.text
    gid = made.json()["game"]
    with _device(web) as phone:
        assert phone.get("/api/account").status_code == 401
        r = phone.post("/api/session", json={"name": "alice", "password": PW})
        assert r.status_code == 200, r.text
        assert r.json()["player"] == first["player"]
        mine = phone.get("/api/me/games").json()
        assert gid in [g["game"] for g in mine["games"]]
        # The account's seat reads as that seat from the second device, with no seat token.
        view = phone.get(f"/api/games/{gid}/view", params={"seat": 0})
        assert view.status_code == 200, view.text
        assert view.json()["view"]["viewer"] == 0


def test_log_in_refuses_a_wrong_password_in_the_same_words_as_an_unknown_name(web: TestClient) -> None:
    _sign_up(web)
    wrong = web.post("/api/session", json={"name": "Alice", "password": "not the password"})
    unknown = web.post("/api/session", json={"name": "Nobody", "password": PW})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["code"] == unknown.json()["code"] == "bad_login"
    assert wrong.json()["message"] == unknown.json()["message"]


@ON_BOTH_STORES
def test_failed_log_ins_are_limited_per_name(web: TestClient) -> None:
    _sign_up(web)
    with _device(web) as other:
        codes = [
            other.post("/api/session", json={"name": "Alice", "password": f"guess {i:04}"}).json()["code"]
            for i in range(6)
        ]
        assert codes == ["bad_login"] * 5 + ["rate_limited"]
        # Even the right password waits now: the limit is the name's, not the guesses'.
        r = other.post("/api/session", json={"name": "Alice", "password": PW})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"


@ON_BOTH_STORES
def test_the_log_in_limit_is_one_for_every_server_on_the_store(db_url: str) -> None:
    """Two servers on one store (two processes' services; no broker between them): the failures made
    through one count in the other, so two servers give no more guesses than one."""
    one, two = create_app(db_url, rate=0, socket_rate=0), create_app(db_url, rate=0, socket_rate=0)
    with (
        TestClient(one, base_url="http://testserver") as a,
        TestClient(two, base_url="http://testserver") as b,
    ):
        _sign_up(a, "Gimli")
        guesses = [
            (a, b)[i % 2].post("/api/session", json={"name": "gimli", "password": f"axe {i:05}"})
            for i in range(5)
        ]
        assert [r.json()["code"] for r in guesses] == ["bad_login"] * 5
        for c in (a, b):
            r = c.post("/api/session", json={"name": "Gimli", "password": PW})
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
            wait = int(re.search(r"in (\d+) seconds", r.json()["message"]).group(1))  # type: ignore[union-attr]
            assert LOGIN_WINDOW - 60 < wait <= LOGIN_WINDOW + 1


@ON_BOTH_STORES
def test_failures_are_counted_in_the_store_pruned_as_they_age_and_taken_back_on_success(db_url: str) -> None:
    store = Store(db_url)
    lf = schema.login_failures
    try:
        limits = Failures(store, limit=2, window=100)
        now = time.time()
        key = hashlib.sha256(b"name:gimli").hexdigest()
        with store._begin() as c:
            c.execute(insert(lf), [{"key": key, "at": now - at} for at in (150, 60, 30)])
        # Two failures in the window (the third is older): the next attempt is refused until the
        # older of the two ages out, in 40 seconds; it leaves no row, and the aged one is pruned.
        with pytest.raises(ServerError) as refused:
            limits.hold(["name:gimli", "addr:10.0.0.1"])
        assert refused.value.code == "rate_limited"
        wait = int(re.search(r"in (\d+) seconds", str(refused.value)).group(1))  # type: ignore[union-attr]
        assert 35 <= wait <= 40  # 40 less the time this test took since `now` (a busy machine's)
        with store.engine.connect() as c:
            assert sorted(now - at for (at,) in c.execute(select(lf.c.at))) == [30, 60]
        # An attempt that succeeds takes its count back; one that fails leaves it.
        held = limits.hold(["name:aragorn"])
        limits.release(held)
        failed = limits.hold(["name:legolas"])
        with store.engine.connect() as c:
            keys = [k for (k,) in c.execute(select(lf.c.key))]
        assert hashlib.sha256(b"name:aragorn").hexdigest() not in keys
        assert keys.count(failed[0][0]) == 1
        # A name's failures all end when its password is given (`clear`).
        limits.release(limits.hold(["name:legolas"]), clear="name:legolas")
        with store.engine.connect() as c:
            assert c.execute(select(lf.c.key).where(lf.c.key == failed[0][0])).first() is None
    finally:
        store.close()


@ON_BOTH_STORES
def test_guesses_sent_at_once_get_no_more_tries_than_the_limit(db_url: str) -> None:
    """Twelve wrong guesses in flight at once (threads: requests to any number of processes): each
    is counted before it is tried, so no more than the limit are tried, and those refused leave no
    count behind."""
    store = Store(db_url)
    try:
        limits = Failures(store, limit=5, window=100)
        start = threading.Barrier(12)

        def guess(_: int) -> bool:
            start.wait()
            try:
                limits.hold(["name:gimli"])  # tried, and wrong: its count stays
            except ServerError as e:
                assert e.code == "rate_limited"
                return False
            return True

        with ThreadPoolExecutor(12) as pool:
            tried = sum(pool.map(guess, range(12)))
        assert tried <= 5
        with store.engine.connect() as c:
            assert len(c.execute(select(schema.login_failures)).all()) == tried
    finally:
        store.close()


@pytest.mark.slow  # two `smallworld serve` processes
@pytest.mark.postgres
@pytest.mark.redis
def test_two_server_processes_on_one_postgresql_share_the_log_in_limit(
    services: dict[str, str], tmp_path: Path
) -> None:
    db = fresh_pg_database(services["PG_URL"])
    with ThreadPoolExecutor(2) as pool:  # started together: half the wait
        starts = [pool.submit(ServerProcess, db, None, tmp_path / log) for log in ("a.log", "b.log")]
    started = [f.result() for f in starts if f.exception() is None]
    if len(started) < 2:
        for p in started:
            p.stop()
        raise RuntimeError(f"a server did not start: {(tmp_path / 'a.log').read_text()[-2000:]}")
    a, b = started
    try:
        made = httpx.post(a.url + "/api/accounts", json={"name": "Boromir", "password": PW})
        assert made.status_code == 200, made.text
        codes = [
            httpx.post(
                (a, b)[i % 2].url + "/api/session", json={"name": "boromir", "password": f"horn {i}"}
            ).json()["code"]
            for i in range(6)
        ]
        assert codes == ["bad_login"] * 5 + ["rate_limited"]
        for p in (a, b):
            r = httpx.post(p.url + "/api/session", json={"name": "Boromir", "password": PW})
            assert r.status_code == 429 and "seconds" in r.json()["message"], r.text
    finally:
        a.stop()
        b.stop()


@ON_BOTH_STORES
def test_names_are_unique_whatever_the_case_or_lookalike_letters(web: TestClient) -> None:
    _sign_up(web, "Alice")
    for twin in ["alice", "ALICE", "\u0410lice", "A1ice"]:
        with _device(web) as c:
            r = c.post("/api/accounts", json={"name": twin, "password": PW})
            assert r.status_code == 409 and r.json()["code"] == "name_taken", (twin, r.text)
    with _device(web) as c:
        assert c.post("/api/accounts", json={"name": "Alina", "password": PW}).status_code == 200


@ON_BOTH_STORES
def test_an_anonymous_player_claims_an_account_and_keeps_its_games(web: TestClient) -> None:
    with _device(web) as c:
        made = c.post("/api/games", json={"players": 2, "name": "Bob", "seats": BOTS}).json()
        token = made["player_token"]
        r = c.post(
            "/api/accounts",
            json={"name": "Bob", "password": PW},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        pid = r.json()["player"]["id"]
        again = c.post(
            "/api/accounts",
            json={"name": "Bobby", "password": PW},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert again.status_code == 409 and again.json()["code"] == "account_exists"
    with _device(web) as laptop:
        logged = laptop.post("/api/session", json={"name": "bob", "password": PW}).json()
        assert logged["player"]["id"] == pid
        games = laptop.get("/api/me/games").json()["games"]
        assert made["game"] in [g["game"] for g in games]


def test_a_post_by_session_needs_its_csrf_token(web: TestClient) -> None:
    first = _sign_up(web)
    body = {"players": 2, "seats": BOTS}
    bare = web.post("/api/games", json=body)
    assert bare.status_code == 403 and bare.json()["code"] == "csrf"
    forged = web.post("/api/games", json=body, headers={"X-CSRF-Token": "0" * 32})
    assert forged.status_code == 403
    assert web.get("/api/me/games").json()["games"] == []  # nothing was made
    ok = web.post("/api/games", json=body, headers={"X-CSRF-Token": first["csrf"]})
    assert ok.status_code == 200


def test_sign_up_and_log_in_refuse_another_sites_page(web: TestClient) -> None:
    _sign_up(web)
    evil = {"Origin": "https://evil.example"}
    r = web.post("/api/session", json={"name": "Alice", "password": PW}, headers=evil)
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = web.post(
        "/api/accounts", json={"name": "Mallory", "password": PW}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert r.status_code == 403
    same = web.post(
        "/api/session", json={"name": "Alice", "password": PW}, headers={"Origin": "http://testserver"}
    )
    assert same.status_code == 200


@ON_BOTH_STORES
def test_log_out_ends_only_this_browsers_session(web: TestClient) -> None:
    first = _sign_up(web)
    with _device(web) as phone:
        phone.post("/api/session", json={"name": "Alice", "password": PW})
        out = web.post("/api/session/logout", headers={"X-CSRF-Token": first["csrf"]})
        assert out.status_code == 200 and out.json()["logged_out"] is True
        assert web.get("/api/account").status_code == 401
        assert phone.get("/api/account").status_code == 200


@ON_BOTH_STORES
def test_a_password_change_ends_the_other_sessions_and_the_old_password(web: TestClient) -> None:
    first = _sign_up(web)
    with _device(web) as phone:
        phone.post("/api/session", json={"name": "Alice", "password": PW})
        h = {"X-CSRF-Token": first["csrf"]}
        wrong = web.post(
            "/api/account/password", json={"password": "nope nope", "new_password": "x" * 9}, headers=h
        )
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
        short = web.post("/api/account/password", json={"password": PW, "new_password": "short"}, headers=h)
        assert short.status_code == 400 and short.json()["field"] == "new_password"
        r = web.post(
            "/api/account/password", json={"password": PW, "new_password": "a new secret"}, headers=h
        )
        assert r.status_code == 200 and r.json()["sessions_ended"] == 1, r.text
        assert phone.get("/api/account").status_code == 401
        assert web.get("/api/account").status_code == 200
    with _device(web) as c:
        assert c.post("/api/session", json={"name": "Alice", "password": PW}).status_code == 401
        assert c.post("/api/session", json={"name": "Alice", "password": "a new secret"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Alice", "password": "short"}, "password"),
        ({"name": "Alice", "password": 12345678}, "password"),
        ({"name": "", "password": PW}, "name"),
        ({"name": "A\u202eecila", "password": PW}, "name"),
        ({"name": "Alice", "password": "pass\u0000word"}, "password"),
        ({"name": "!!!", "password": PW}, "name"),
    ],
)
def test_bad_sign_ups_are_refused_by_field_and_make_nothing(web: TestClient, body: dict, field: str) -> None:  # type: ignore[type-arg]
    r = web.post("/api/accounts", json=body)
    assert r.status_code == 400 and r.json()["code"] == "invalid_input" and r.json()["field"] == field, r.text
    assert web.get("/api/account").status_code == 401
