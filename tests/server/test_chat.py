"""A game's chat (smallworld/server/chat.py; docs/server.md, "Chat"): the seats' channel and the
spectators', each read only by its own side until the game is over, then by everyone and in the
replay; plain text within limits, a rate per poster, pushed on the sockets that may read it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from server.helpers import ServerProcess, fresh_pg_database
from smallworld.server import chat
from smallworld.server.app import create_app
from smallworld.server.store import Store


@pytest.fixture
def any_client(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0)) as c:
        yield c


class Table:
    """A game of two people (Ann created it, Bob joined by invitation) and what each holds."""

    def __init__(self, client: TestClient) -> None:
        seats = [{"kind": "creator"}, {"kind": "invite", "name": "Bob"}]
        g = client.post("/api/games", json={"name": "Ann", "players": 2, "seats": seats}).json()
        self.gid: str = g["game"]
        j = client.post(
            f"/api/games/{self.gid}/join", json={"invite": g["seats"][1]["invite"], "name": "Bob"}
        )
        assert j.status_code == 200, j.text
        self.tokens = {0: g["seats"][0]["token"], 1: j.json()["token"]}
        self.ann_player = g["player_token"]  # Ann's player token: opens her seat too
        self.client = client

    def auth(self, token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def post(self, body: dict[str, Any], token: str | None = None) -> Any:
        return self.client.post(f"/api/games/{self.gid}/chat", json=body, headers=self.auth(token))

    def read(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        q = "" if since is None else f"?since={since}"
        r = self.client.get(f"/api/games/{self.gid}/chat{q}", headers=self.auth(token))
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def texts(self, token: str | None = None) -> list[str]:
        return [m["text"] for m in self.read(token)["messages"]]

    def stored(self) -> int:
        svc: Any = self.client.app.state.service  # type: ignore[attr-defined]
        return len(chat.store_read(svc.store, self.gid, chat.CHANNELS, 0, None))

    def play_to_the_end(self) -> None:
        """Random legal moves for both seats until the game is over."""
        rng = random.Random(7)
        for _ in range(5000):
            s = self.client.get(f"/api/games/{self.gid}").json()
            if s["status"] == "over":
                return
            seat = s["acting_seat"]
            v = self.client.get(f"/api/games/{self.gid}/view", headers=self.auth(self.tokens[seat])).json()
            act = {"seat": seat, "ply": v["ply"], "action": rng.choice(v["legal"])}
            r = self.client.post(f"/api/games/{self.gid}/act", json=act, headers=self.auth(self.tokens[seat]))
            assert r.status_code == 200, r.text
        raise AssertionError("the game did not end")


def test_each_side_reads_its_own_channel_until_the_end_then_both_and_the_replay_has_them(
    any_client: TestClient,
) -> None:
    t = Table(any_client)
    r = t.post({"text": "good luck", "channel": "seats"}, t.tokens[0])
    assert r.status_code == 200, r.text
    assert r.json()["message"] == {
        **r.json()["message"],
        "seq": 1,
        "channel": "seats",
        "seat": 0,
        "name": "Ann",
        "text": "good luck",
        "ply": 0,
    }
    # Bob's seat token, no channel given: his own, the seats'.
    assert t.post({"text": "you too"}, t.tokens[1]).json()["message"]["channel"] == "seats"
    # A spectator without a token gives a name; one with a player token of no seat here posts as that player.
    assert (
        t.post({"text": "Ann should go for the mountains", "name": "Kib"}).json()["message"]["seat"] is None
    )
    watcher = any_client.post("/api/players", json={"name": "Wes"}).json()["player_token"]
    w = t.post({"text": "hello from the rail", "channel": "spectators"}, watcher).json()["message"]
    assert (w["name"], w["channel"], w["seat"]) == ("Wes", "spectators", None)
    # During play: the seats read only theirs (no kibitzing), the spectators only theirs.
    seats_now = ["good luck", "you too"]
    spectators_now = ["Ann should go for the mountains", "hello from the rail"]
    assert t.texts(t.tokens[0]) == t.texts(t.tokens[1]) == t.texts(t.ann_player) == seats_now
    assert t.read(t.tokens[0])["channels"] == ["seats"]
    assert t.texts() == t.texts(watcher) == spectators_now
    assert t.read()["channels"] == ["spectators"] and t.read()["seat"] is None
    assert [m["seq"] for m in t.read(t.tokens[1], since=1)["messages"]] == [2]
    assert t.read(t.tokens[1], since=2**70)["messages"] == [] and len(t.read(since=-(2**70))["messages"]) == 2
    # The replay is refused before the end (and says nothing of the chat).
    assert any_client.get(f"/api/games/{t.gid}/replay").json()["code"] == "not_over"
    # A message posted later keeps the ply it was posted at.
    t.play_to_the_end()
    end = any_client.get(f"/api/games/{t.gid}").json()["ply"]
    assert t.post({"text": "gg"}, t.tokens[1]).json()["message"]["ply"] == end
    # Over: everyone reads both channels, in the order they were posted.
    everything = seats_now + spectators_now + ["gg"]
    for who in (t.tokens[0], t.tokens[1], None, watcher):
        assert t.texts(who) == everything
        assert t.read(who)["channels"] == ["seats", "spectators"]
    rep = any_client.get(f"/api/games/{t.gid}/replay").json()
    assert [(m["text"], m["channel"], m["ply"]) for m in rep["chat"]] == [
        ("good luck", "seats", 0),
        ("you too", "seats", 0),
        ("Ann should go for the mountains", "spectators", 0),
        ("hello from the rail", "spectators", 0),
        ("gg", "seats", end),
    ]


def test_text_is_plain_and_bad_input_is_refused_in_the_error_format_changing_nothing(
    any_client: TestClient,
) -> None:
    t = Table(any_client)
    html = '<img src=x onerror="alert(1)"> <b>bold</b> &amp;'
    ok = t.post({"text": f"  {html}  "}, t.tokens[0])
    assert ok.json()["message"]["text"] == html  # trimmed, stored and answered as the text it is
    before = t.stored()
    too_long = "x" * (chat.MAX_TEXT + 1)
    rule = "a message of 1 to 300 characters, without control or bidirectional characters"
    cases: list[tuple[dict[str, Any], str | None, int, str, str, str]] = [
        ({}, t.tokens[0], 400, "invalid_input", "text", "text: required"),
        ({"text": "   "}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule}"),
        ({"text": too_long}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule}"),
        ({"text": 5}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule}"),
        ({"text": "two\nlines"}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule} (U+000A)"),
        ({"text": "bell\x07"}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule} (U+0007)"),
        ({"text": "abc\u202edef"}, t.tokens[0], 400, "invalid_input", "text", f"text: {rule} (U+202E)"),
        ({"text": "hi", "channel": "all"}, t.tokens[0], 400, "invalid_input", "channel", "channel: one of"),
        ({"text": "hi", "channel": "spectators"}, t.tokens[0], 403, "wrong_seat", "channel", "a seat posts"),
        (
            {"text": "hi", "channel": "seats", "name": "Kib"},
            None,
            403,
            "wrong_seat",
            "channel",
            "the players'",
        ),
        ({"text": "hi"}, None, 400, "invalid_input", "name", "name: required"),
        ({"text": "hi", "name": "K\u202eib"}, None, 400, "invalid_input", "name", "name: a name"),
        ({"text": "hi"}, "not-a-token", 401, "bad_token", "token", "the token is not known"),
    ]
    for body, token, status, code, field, message in cases:
        r = t.post(body, token)
        assert r.status_code == status, (body, r.text)
        err = r.json()
        assert (err["code"], err.get("field")) == (code, field), (body, err)
        assert err["message"].startswith(message), (body, err)
        assert err["reason"] == code
    r = any_client.post("/api/games/0123456789abcdef/chat", json={"text": "hi"}, headers=t.auth(t.tokens[0]))
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    assert any_client.get(f"/api/games/{t.gid}/chat?since=x").json()["field"] == "since"
    assert t.stored() == before


def test_a_poster_may_send_five_messages_in_ten_seconds(any_client: TestClient) -> None:
    t = Table(any_client)
    for i in range(chat.BURST):
        assert t.post({"text": f"m{i}"}, t.tokens[0]).status_code == 200
    r = t.post({"text": "one more"}, t.tokens[0])
    assert r.status_code == 429
    assert (r.json()["code"], r.json()["field"]) == ("rate_limited", "text")
    assert r.json()["message"] == "over 5 chat messages in 10 seconds"
    # Another poster is not held back by it (spectators without a token: by their address).
    assert t.post({"text": "mine"}, t.tokens[1]).status_code == 200
    assert t.post({"text": "watching", "name": "Kib"}).status_code == 200
    assert t.texts(t.tokens[1]) == [f"m{i}" for i in range(chat.BURST)] + ["mine"]


def test_a_game_keeps_at_most_its_cap_of_messages(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Table(any_client)
    monkeypatch.setattr(chat, "MAX_PER_GAME", 2)
    assert t.post({"text": "a"}, t.tokens[0]).status_code == 200
    assert t.post({"text": "b"}, t.tokens[1]).status_code == 200
    r = t.post({"text": "c"}, t.tokens[0])
    assert (r.status_code, r.json()["code"]) == (429, "limit_reached")
    assert t.stored() == 2


def test_new_messages_reach_the_sockets_that_may_read_them(client: TestClient) -> None:
    t = Table(client)
    with (
        client.websocket_connect(f"/api/games/{t.gid}/ws?token={t.tokens[1]}") as bob,
        client.websocket_connect(f"/api/games/{t.gid}/ws") as rail,
    ):
        assert bob.receive_json()["type"] == "hello" and rail.receive_json()["type"] == "hello"
        t.post({"text": "psst", "name": "Kib"})  # the spectators' channel: not to Bob
        t.post({"text": "hi Bob"}, t.tokens[0])  # the seats': not to the spectator
        t.post({"text": "still here", "name": "Kib"})
        got = bob.receive_json()
        assert got["type"] == "chat" and got["game"] == t.gid
        assert (got["message"]["text"], got["message"]["name"], got["message"]["seat"]) == (
            "hi Bob",
            "Ann",
            0,
        )
        first, second = rail.receive_json(), rail.receive_json()
        assert [first["message"]["text"], second["message"]["text"]] == ["psst", "still here"]
        # Bob's next message is the next seats' one: the spectators' never came.
        t.post({"text": "hello"}, t.tokens[1])
        assert bob.receive_json()["message"]["text"] == "hello"


def test_a_message_stored_by_another_process_reaches_this_ones_sockets(client: TestClient) -> None:
    """Several processes: the broker's `{"game", "chat": seq}` makes each process read the message
    from the store and send it to its own sockets that may read it."""
    t = Table(client)
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    portal: Any = client.portal
    with client.websocket_connect(f"/api/games/{t.gid}/ws?token={t.tokens[0]}") as ann:
        assert ann.receive_json()["type"] == "hello"
        other = chat.store_post(svc.store, t.gid, "spectators", None, "Kib", "elsewhere", 0)
        portal.call(svc._on_broker, {"game": t.gid, "chat": other["seq"], "node": "x"})
        theirs = chat.store_post(svc.store, t.gid, "seats", 1, "Bob", "from the other process", 0)
        portal.call(svc._on_broker, {"game": t.gid, "chat": theirs["seq"], "node": "x"})
        got = ann.receive_json()
        assert got["type"] == "chat" and got["message"]["text"] == "from the other process"


def test_the_store_numbers_each_games_messages_and_reads_the_newest(any_db_url: str) -> None:
    store = Store(any_db_url)
    try:
        with store.engine.begin() as c:
            from sqlalchemy import insert

            from smallworld.server import schema as s

            for gid in ("g1", "g2"):
                c.execute(
                    insert(s.games).values(
                        id=gid,
                        settings="{}",
                        seed="1",
                        status="playing",
                        ply=0,
                        meta="{}",
                        created=0.0,
                        updated=0.0,
                    )
                )
        for i in range(4):
            chat.store_post(store, "g1", "seats", 0, "Ann", f"t{i}", i)
        assert chat.store_post(store, "g2", "spectators", None, "Kib", "x", 0)["seq"] == 1
        assert [m["seq"] for m in chat.store_read(store, "g1", ("seats",), 0, None)] == [1, 2, 3, 4]
        assert [m["text"] for m in chat.store_read(store, "g1", ("seats",), 1, 2)] == ["t2", "t3"]
        assert chat.store_read(store, "g1", ("spectators",), 0) == []
    finally:
        store.close()


def test_malformed_chat_requests_get_documented_refusals_and_store_nothing(any_client: TestClient) -> None:
    """The chat's share of tests/server/test_malformed.py: poisoned values and keys anywhere in a
    post, refused names and texts, ids that cannot be games, `since`s that are not integers."""
    from server.test_malformed import BAD_IDS, BAD_INTS, KEYS, MARK, NAMES, VALUES, _place, _status_ok

    t = Table(any_client)
    rng = random.Random(28)
    path = f"/api/games/{t.gid}/chat"
    hs = {"content-type": "application/json"}
    cases: list[tuple[str, str, dict[str, Any], str | None]] = []
    for body, token in (
        ({"text": "hi", "channel": "seats"}, t.tokens[0]),
        ({"text": "hi", "name": "Kib"}, None),
    ):
        for _ in range(60):
            raw = _place(body, rng, key=False).replace(f'"{MARK}"', rng.choice(VALUES))
            cases.append(("POST", path, {"content": raw.encode(), "headers": {**hs, **t.auth(token)}}, None))
        for _ in range(15):
            raw = _place(body, rng, key=True).replace(f'"{MARK}"', rng.choice(KEYS))
            cases.append(("POST", path, {"content": raw.encode(), "headers": {**hs, **t.auth(token)}}, None))
        for root in ("[]", "1", '"x"', "null", "{oops"):
            cases.append(("POST", path, {"content": root.encode(), "headers": {**hs, **t.auth(token)}}, None))
    for bad in NAMES:
        if bad != "x" * 41:  # a name too long is a fine message
            cases.append(("POST", path, {"json": {"text": bad}, "headers": t.auth(t.tokens[0])}, "text"))
        cases.append(("POST", path, {"json": {"text": "hi", "name": bad}}, "name"))
    for gid in BAD_IDS:
        cases.append(("GET", f"/api/games/{gid}/chat", {}, None))
        cases.append(("POST", f"/api/games/{gid}/chat", {"json": {"text": "hi", "name": "Kib"}}, None))
    for n in BAD_INTS:
        cases.append(("GET", f"{path}?since={n}", {}, "since"))
    for method, where, kwargs, field in cases:
        r = any_client.request(method, where, **kwargs)
        what = (method, where, str(kwargs.get("content", kwargs.get("json")))[:120])
        body = _status_ok(r.status_code, r.json(), what)
        if field is not None:
            assert body.get("field") == field, (what, body)
    assert t.stored() == 0


def _next_chat(ws: Any) -> dict[str, Any]:
    """The next `chat` message on a socket (updates of the game may come before it)."""
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if msg["type"] == "chat":
            return msg


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow  # two `smallworld serve` processes
def test_two_processes_send_each_others_messages_to_their_sockets(
    services: dict[str, str], tmp_path: Path
) -> None:
    """Several processes (docs/server.md, "Several processes"): a message posted through one reaches
    the sockets of the other that may read it (through Redis, read from the store), and only those."""
    db = fresh_pg_database(services["PG_URL"])
    a = ServerProcess(db, services["REDIS_URL"], tmp_path / "a.log")
    b = ServerProcess(db, services["REDIS_URL"], tmp_path / "b.log")
    try:
        seats = [{"kind": "creator"}, {"kind": "invite", "name": "Bob"}]
        g = httpx.post(a.url + "/api/games", json={"name": "Ann", "players": 2, "seats": seats}).json()
        gid, ann = g["game"], g["seats"][0]["token"]
        join = {"invite": g["seats"][1]["invite"], "name": "Bob"}
        bob = httpx.post(f"{b.url}/api/games/{gid}/join", json=join).json()["token"]
        with (
            connect(f"{b.ws}/api/games/{gid}/ws?token={bob}") as bob_ws,
            connect(f"{a.ws}/api/games/{gid}/ws") as rail,
        ):
            assert json.loads(bob_ws.recv(timeout=30))["type"] == "hello"
            assert json.loads(rail.recv(timeout=30))["type"] == "hello"

            def post(where: ServerProcess, body: dict[str, Any], token: str | None = None) -> None:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                r = httpx.post(f"{where.url}/api/games/{gid}/chat", json=body, headers=headers)
                assert r.status_code == 200, r.text

            post(b, {"text": "from the rail, through b", "name": "Kib"})  # b's spectators: none here
            post(a, {"text": "across, from a"}, ann)
            got = _next_chat(bob_ws)["message"]
            assert (got["text"], got["seat"], got["name"]) == ("across, from a", 0, "Ann")
            assert _next_chat(rail)["message"]["text"] == "from the rail, through b"
            post(b, {"text": "and back"}, bob)  # Bob's own process; the spectator on a never gets it
            post(b, {"text": "still watching", "name": "Kib"})
            assert _next_chat(bob_ws)["message"]["text"] == "and back"
            assert _next_chat(rail)["message"]["text"] == "still watching"
    finally:
        a.stop()
        b.stop()
