"""Malformed input, thousands of requests and socket messages per store (issue 24): JSON nested
past the parser's depth, lone surrogates and NULs in strings and keys, NaN, bad UTF-8, control
and bidirectional characters in names, game ids that cannot be ids, seats that are not numbers,
other seats' tokens, binary frames. Each is answered below 500 in the documented shape, and the
store is exactly as it was: no new player, game, seat or action."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from smallworld.server import schema as tables
from smallworld.server.app import create_app
from smallworld.server.errors import STATUS
from smallworld.server.store import NewPlayer, Store

MARK = "__poison__"
# Raw JSON put where a value goes: each is refused wherever it lands.
VALUES = [
    '"\\ud800"',
    '"tail \\udfff"',
    '"\\udc00\\ud800"',
    '"a\\u0000b"',
    '"\\u0000"',
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e400",
    '{"\\ud800": 1}',
    '{"a\\u0000": 0}',
    *("[" * n + "]" * n for n in (33, 100, 990, 995, 1000, 5000, 20000)),
    *('{"a":' * n + "1" + "}" * n for n in (33, 990, 995, 3000)),
]
KEYS = ['"\\ud800"', '"k\\u0000"', '"\\udfff\\u0000"']
# Names refused where a name goes (a value that is fine elsewhere in a body).
NAMES: list[Any] = [
    "\u202eevil",
    "a\u202db",
    "\u2066x\u2069",
    "\u200fAnn",
    "\u061c",
    "Ann\x07",
    "x\x1b[31m",
    "a\u2028b",
    "a\u2029b",
    "a\x85b",
    "a\tb",
    "",
    "   ",
    "x" * 41,
    5,
    ["Ann"],
    {"n": 1},
    True,
]
BAD_IDS = ["%00", "a%00", "%ff", "..", "%2e%2e", "a b", "é", "x" * 33, "%C3%28", "g;drop", "%0a", "-%00-"]
BAD_INTS = ["x", "1.5", "1e3", "%00", "0x1", "--1", "1%00", "nan", "%ED%A0%80"]
METHODS = ["PUT", "DELETE", "PATCH"]


def _status_ok(status: int, body: Any, what: Any) -> dict[str, Any]:
    """A refusal in the documented shape, with its code's status."""
    assert 400 <= status < 500, (what, status, body)
    shape = {"code", "message", "field", "rule", "reason", "params"}
    assert isinstance(body, dict) and set(body) <= shape, (what, body)
    assert isinstance(body.get("message"), str) and body["message"], (what, body)
    assert STATUS.get(body["code"]) == status, (what, status, body)
    return body


def _rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    with store.engine.connect() as c:
        return {
            t.name: sorted((tuple(map(repr, r)) for r in c.execute(select(t))), key=str)
            for t in (tables.players, tables.games, tables.seats, tables.actions)
        }


def _place(template: Any, rng: random.Random, key: bool) -> str:
    """`template` as JSON with the mark put at a random place: as a value, or as a key."""
    doc = json.loads(json.dumps(template))
    holders: list[Any] = []
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, dict | list):
            holders.append(v)
            stack.extend(v.values() if isinstance(v, dict) else v)
    at = rng.choice(holders)
    if key:
        at = at if isinstance(at, dict) else doc
        at[MARK] = 1
    elif isinstance(at, dict):
        at[rng.choice([*at, "extra"])] = MARK
    else:
        at.insert(rng.randrange(len(at) + 1), MARK)
    return json.dumps(doc)


class World:
    """A store with games in it, and the client that made them."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        post = client.post
        # A: hot-seat, one player on both seats, a move played.
        a = post("/api/games", json={"players": 2, "name": "Ann", "seats": [{"kind": "creator"}] * 2}).json()
        self.a, self.ann = a["game"], a["player_token"]
        v = client.get(f"/api/games/{self.a}/view?seat=0", headers=self.auth(self.ann)).json()
        seat = v["acting_seat"]
        move = {"seat": seat, "ply": 0, "action": v["legal"][0] if seat == 0 else {"kind": "end"}}
        if seat != 0:
            v = client.get(f"/api/games/{self.a}/view?seat={seat}", headers=self.auth(self.ann)).json()
            move["action"] = v["legal"][0]
        assert post(f"/api/games/{self.a}/act", json=move, headers=self.auth(self.ann)).status_code == 200
        # B: Ann and Bob, started; C: Ann and a free open seat.
        b = post(
            "/api/games",
            json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "open"}]},
            headers=self.auth(self.ann),
        ).json()
        self.b = b["game"]
        bob = post(f"/api/games/{self.b}/join", json={"seat": 1, "name": "Bob"}).json()
        self.bob, self.bob_seat = bob["player_token"], bob["token"]
        c = post(
            "/api/games",
            json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "open"}]},
            headers=self.auth(self.ann),
        ).json()
        self.c = c["game"]
        self.view_b = client.get(f"/api/games/{self.b}/view?seat=1", headers=self.auth(self.bob)).json()

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def bodies(self) -> list[tuple[str, dict[str, str], Any, list[str]]]:
        """(path, headers, a valid body, the JSON paths of its names) for each endpoint with a body."""
        create = {
            "players": 2,
            "name": "Eve",
            "seats": [{"kind": "creator", "name": "Eve"}, {"kind": "invite", "name": "Bob"}],
            "clock": {"kind": "turn", "deadline_s": 60},
            "title": "t",
            "options": {},
        }
        b1 = self.view_b
        act = {"seat": 1, "ply": b1["ply"], "action": (b1["legal"] or [{"kind": "end"}])[0]}
        return [
            ("/api/players", {}, {"name": "Eve"}, ["name"]),
            ("/api/games", {}, create, ["name", "seats[0].name", "seats[1].name"]),
            (f"/api/games/{self.c}/join", {}, {"seat": 1, "name": "Eve"}, ["name"]),
            (f"/api/games/{self.b}/act", self.auth(self.bob), act, []),
            (f"/api/games/{self.a}/seats/0/bot", self.auth(self.ann), {"level": "random"}, []),
        ]


@pytest.fixture
def world(any_db_url: str) -> Iterator[World]:
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0)) as client:
        yield World(client)


def _http_cases(w: World, rng: random.Random) -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
    """(method, path, request arguments, the field the refusal must name, if one)."""
    json_type = {"content-type": "application/json"}
    for path, headers, body, names in w.bodies():
        hs = {**headers, **json_type}
        for _ in range(250):
            text = _place(body, rng, key=False).replace(f'"{MARK}"', rng.choice(VALUES))
            yield "POST", path, {"content": text.encode(), "headers": hs}, None
        for _ in range(40):
            text = _place(body, rng, key=True).replace(f'"{MARK}"', rng.choice(KEYS))
            yield "POST", path, {"content": text.encode(), "headers": hs}, None
        good = json.dumps(body).encode()
        for _ in range(25):  # cut short, bad UTF-8, not an object
            cut = rng.randrange(len(good))
            yield "POST", path, {"content": good[:cut], "headers": hs}, None
            at = good.index(b'"') + 1
            junk = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80"])
            yield "POST", path, {"content": good[:at] + junk + good[at:], "headers": hs}, None
        for root in ("[]", "1", '"x"', "null", "true", "[" * 995 + "]" * 995):
            yield "POST", path, {"content": root.encode(), "headers": hs}, None
        yield "POST", path, {"content": b'{"pad": "' + b"x" * 70_000 + b'"}', "headers": hs}, None
        for where in names:
            for name in NAMES:
                doc = json.loads(json.dumps(body))
                if where.startswith("seats["):
                    doc["seats"][int(where[6])]["name"] = name
                else:
                    doc[where] = name
                yield "POST", path, {"json": doc, "headers": headers}, where
    # The same bodies on game ids that cannot be games, and seats that are not numbers.
    posts = ["/join", "/act", "/seats/0/bot", "/seats/0/take"]
    for gid in BAD_IDS:
        for tail in ["", "/board", "/view", "/moves?since=0", "/replay", *posts]:
            method = "POST" if tail in posts else "GET"
            yield method, f"/api/games/{gid}{tail}", {"json": {"seat": 0, "ply": 0}}, None
    for n in BAD_INTS:
        for g in (w.a, w.b):
            for what in ("bot", "take"):
                yield (
                    "POST",
                    f"/api/games/{g}/seats/{n}/{what}",
                    {"json": {"level": "random"}, "headers": w.auth(w.ann)},
                    "seat",
                )
            yield "GET", f"/api/games/{g}/view?seat={n}", {"headers": w.auth(w.ann)}, "seat"
            yield "GET", f"/api/games/{g}/moves?since={n}", {}, "since"
    # Another seat's tokens: Ann's player token and Bob's seat token are not seat 0's or 1's of B.
    b1 = w.view_b
    act = {"ply": b1["ply"], "action": (b1["legal"] or [{"kind": "end"}])[0]}
    for _ in range(10):
        yield "POST", f"/api/games/{w.b}/act", {"json": {**act, "seat": 1}, "headers": w.auth(w.ann)}, "seat"
        yield "POST", f"/api/games/{w.b}/act", {"json": {**act, "seat": 0}, "headers": w.auth(w.bob)}, "seat"
        yield "POST", f"/api/games/{w.b}/seats/1/bot", {"json": {}, "headers": w.auth(w.ann)}, "seat"
        yield "GET", f"/api/games/{w.b}/view?seat=0", {"headers": w.auth(w.bob_seat)}, "seat"
    for path in ("/api/players", "/api/games", f"/api/games/{w.a}", f"/api/games/{w.a}/act", "/healthz"):
        for method in METHODS:
            yield method, path, {}, None
    for path in ("/api/nothing", "/api/games/x/y/z", "/static/%00", "/static/../app.py"):
        yield "GET", path, {}, None
    for edition in ("%00", "%ED%A0%80", "../../etc", "x" * 500):
        yield "GET", f"/api/words?edition={edition}", {}, None


@pytest.mark.slow  # thousands of requests
def test_thousands_of_malformed_requests_get_documented_refusals_and_change_nothing(world: World) -> None:
    w = world
    store: Store = w.client.app.state.service.store  # type: ignore[attr-defined]
    before = _rows(store)
    codes: Counter[str] = Counter()
    n = 0
    for method, path, kwargs, field in _http_cases(w, random.Random(24)):
        r = w.client.request(method, path, **kwargs)
        what = (method, path, str(kwargs.get("content", kwargs.get("json")))[:120])
        body = _status_ok(r.status_code, r.json(), what)
        if field is not None:
            assert body.get("field") == field, (what, body)
        codes[body["code"]] += 1
        n += 1
    assert n >= 2000, n
    assert _rows(store) == before
    expected = {"invalid_input", "malformed_json", "not_found", "too_large", "wrong_seat"}
    assert expected | {"method_not_allowed"} <= set(codes), codes


def _socket_messages(rng: random.Random, ply: int, action: Any) -> Iterator[tuple[str, str | bytes]]:
    """(what, a text or binary frame) that must each be answered with one `error` message."""
    noise = bytes(rng.randrange(256) for _ in range(64))
    for frame in (b"", b"\x00\xff", b'{"type": "ping"}', b"\xed\xa0\x80", noise):
        yield "binary", frame
    act = {"type": "act", "ply": ply, "action": action, "ref": 1}
    for _ in range(200):
        yield "value", _place(act, rng, key=False).replace(f'"{MARK}"', rng.choice(VALUES))
    for _ in range(30):
        yield "key", _place(act, rng, key=True).replace(f'"{MARK}"', rng.choice(KEYS))
    for text in ("{oops", "", "[]", "1", "null", '{"type": "fly"}', '{"type": "act"}', "[" * 995 + "]" * 995):
        yield "text", text
    text = json.dumps(act)
    for cut in range(1, len(text), 3):
        yield "cut", text[:cut]


def test_malformed_socket_messages_and_connections_are_refused_in_the_documented_format(world: World) -> None:
    w = world
    store: Store = w.client.app.state.service.store  # type: ignore[attr-defined]
    before = _rows(store)
    refused = 0
    # Connections: a refusal message, then the socket closed with 4000 + the status.
    queries = [f"{g}/ws" for g in BAD_IDS if "%2e" not in g and g != ".."]
    queries += [f"{w.b}/ws?seat={n}&token={w.bob}" for n in BAD_INTS if "%" not in n]
    queries += [f"{w.b}/ws?seat=0&token={w.bob}", f"{w.b}/ws?seat=1&token={w.ann}", f"{w.b}/ws?token=nope"]
    for q in queries:
        with w.client.websocket_connect(f"/api/games/{q}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error", (q, msg)
            err = _status_ok(STATUS[msg["error"]["code"]], msg["error"], q)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4000 + STATUS[err["code"]], (q, closed.value.code)
            refused += 1
    # Messages on an open socket: one `error` each, and the socket serves on.
    b1 = w.view_b
    action = (b1["legal"] or [{"kind": "end"}])[0]
    with w.client.websocket_connect(f"/api/games/{w.b}/ws?seat=1&token={w.bob_seat}") as ws:
        assert ws.receive_json()["type"] == "hello"
        for what, frame in _socket_messages(random.Random(24), b1["ply"], action):
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            msg = ws.receive_json()
            assert msg["type"] == "error", (what, frame[:80], msg)
            _status_ok(STATUS[msg["error"]["code"]], msg["error"], (what, frame[:80]))
            refused += 1
        ws.send_json({"type": "ping", "ref": "end"})
        assert ws.receive_json() == {"type": "pong", "ref": "end"}
    assert refused >= 250, refused
    assert _rows(store) == before


def test_a_refused_create_or_join_leaves_no_player_behind(world: World) -> None:
    w = world
    store: Store = w.client.app.state.service.store  # type: ignore[attr-defined]
    before = _rows(store)
    seats = [{"kind": "creator"}, {"kind": "invite", "name": "\u202eBob"}]
    r = w.client.post("/api/games", json={"players": 2, "name": "Eve", "seats": seats})
    assert (r.status_code, r.json()["field"]) == (400, "seats[1].name")
    r = w.client.post(f"/api/games/{w.b}/join", json={"name": "Eve"})  # B is full
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
    assert _rows(store) == before
    # A join whose seat was taken first writes no player: the player is in the seat's transaction.
    seat = store.seats(w.c)[1]
    assert seat["player_id"] is None
    assert store.take_seat(w.c, 1, "p-first", "First", "f" * 64, NewPlayer("p-first", "First", "1" * 64))
    assert not store.take_seat(w.c, 1, "p-late", "Late", "l" * 64, NewPlayer("p-late", "Late", "2" * 64))
    assert store.player_by_hash("1" * 64) is not None
    assert store.player_by_hash("2" * 64) is None
