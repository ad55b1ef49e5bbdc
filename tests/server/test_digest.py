"""The e-mail digest (issue 29, item 8): at most once a day, to players who gave an address and
opted in, listing the turn-by-turn games where it is their turn, in their language, through the
configured SMTP server — here a local SMTP sink (aiosmtpd) on 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from server.helpers import Sink, another_browser, free_port
from smallworld.server.app import create_app

PW = "correct horse battery"


@pytest.fixture
def sink() -> Iterator[tuple[Sink, int]]:
    handler, port = Sink(), free_port()
    ctl = Controller(handler, hostname="127.0.0.1", port=port)
    ctl.start()
    yield handler, port
    ctl.stop()


def _account(c: TestClient, name: str, mail: dict[str, Any] | None) -> dict[str, str]:
    r = c.post("/api/accounts", json={"name": name, "password": PW})
    h = {"X-CSRF-Token": r.json()["csrf"]}
    if mail is not None:
        r = c.post("/api/account/email", json=mail, headers=h)
        assert r.status_code == 200, r.text
    return h


def test_a_daily_digest_lists_the_games_where_it_is_your_turn(sink: tuple[Sink, int], db_url: str) -> None:
    box, port = sink
    app = create_app(
        db_url, rate=0, socket_rate=0, smtp=f"smtp://127.0.0.1:{port}", site="https://sw.example"
    )
    with TestClient(app, base_url="http://testserver") as ana, another_browser(ana) as ben:
        h = _account(ana, "Ana", {"email": "ana@example.org", "digest": True, "lang": "pt"})
        _account(ben, "Ben", {"email": "ben@example.org", "digest": True, "lang": "en"})
        with another_browser(ana) as cid:
            _account(cid, "Cid", None)  # no address: nothing
        seats = [{"kind": "creator"}, {"kind": "invite", "name": "Zoe"}]
        turn = ana.post(
            "/api/games",
            json={"players": 2, "seats": seats, "clock": {"kind": "turn"}, "title": "Mesa 1"},
            headers=h,
        ).json()
        ben_h = {"X-CSRF-Token": ben.get("/api/account").json()["csrf"]}
        joined = ben.post(
            f"/api/games/{turn['game']}/join", json={"invite": turn["seats"][1]["invite"]}, headers=ben_h
        )
        assert joined.status_code == 200
        live = ana.post(
            "/api/games", json={"players": 2, "seats": seats, "clock": {"kind": "live"}}, headers=h
        ).json()
        ben.post(
            f"/api/games/{live['game']}/join", json={"invite": live["seats"][1]["invite"]}, headers=ben_h
        )
        g = ana.get(f"/api/games/{turn['game']}").json()
        assert g["status"] == "playing"
        # The seat to act in the turn-by-turn game gets the digest; the other player waits.
        to, words = [("ana@example.org", "sua vez"), ("ben@example.org", "your turn")][g["acting_seat"]]
        digest = app.state.digest
        now = time.time()
        assert ana.portal.call(digest.run_once, now) == 1  # type: ignore[union-attr]
        (mail,) = box.mails
        assert mail["To"] == to and words in mail["Subject"]
        body = mail.get_payload(decode=True).decode()
        assert f"https://sw.example/#/game/{turn['game']}" in body and "Mesa 1" in body
        assert live["game"] not in body  # a live game is played at the table, not by e-mail
        # Once a day: nothing more until a day has passed.
        assert ana.portal.call(digest.run_once, now + 60) == 0  # type: ignore[union-attr]
        assert ana.portal.call(digest.run_once, now + 86401) == 1  # type: ignore[union-attr]
        assert len(box.mails) == 2


def test_the_digest_needs_an_address_and_a_valid_one(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=0, socket_rate=0), base_url="http://testserver") as c:
        h = _account(c, "Ana", None)
        for body, field in [
            ({"email": None, "digest": True}, "digest"),
            ({"email": "not an address", "digest": False}, "email"),
            ({"email": "a@b.org", "digest": "yes"}, "digest"),
            ({"email": "a@b.org", "digest": True, "lang": "fr"}, "lang"),
        ]:
            r = c.post("/api/account/email", json=body, headers=h)
            assert r.status_code == 400 and r.json()["field"] == field, (body, r.text)
        ok = c.post("/api/account/email", json={"email": "a@b.org", "digest": True, "lang": "de"}, headers=h)
        assert ok.json()["digest"] is True
        me = c.get("/api/account").json()
        assert (me["email"], me["digest"], me["lang"]) == ("a@b.org", True, "de")
