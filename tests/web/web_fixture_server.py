"""A small stand-in for the game server (issue 12) that the browser tests drive: the static files
of the web client plus the HTTP part of the API the client's `api.js` speaks (docs/web.md), on
real engine games held in memory. Bots move at once after each decision (greedy or random), so a
page never waits. No WebSocket: the client falls back to polling `updates`, which is the same
catch-up it does after a lost socket.

Run it by hand with `python tests/web/web_fixture_server.py [PORT]` to look at the client.
"""

from __future__ import annotations

import json
import mimetypes
import random
import secrets
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from smallworld.bots import make_bot
from smallworld.bots.base import Bot
from smallworld.engine.errors import SmallworldError
from smallworld.engine.game import Game
from smallworld.engine.state import State
from smallworld.engine.views import view_for
from smallworld.web import STATIC, payload


@dataclass
class Seat:
    kind: str  # "me", "hotseat", "invite", "bot"
    name: str
    token: str | None = None
    player: str | None = None
    invite: str | None = None
    bot: Bot | None = None


@dataclass
class Match:
    id: str
    settings: dict[str, Any]
    game: Game
    st: State
    seats: list[Seat]
    clock: str
    history: list[State] = field(default_factory=list)  # the state after each ply (index = ply)
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def seat_of(self, token: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if token and s.token is not None and secrets.compare_digest(s.token, token):
                return i
        return None


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body


class Lobby:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.players: dict[str, dict[str, str]] = {}  # token -> {id, name}
        self.matches: dict[str, Match] = {}
        self.seed = 100

    # --- players and games ------------------------------------------------------------------
    def player(self, token: str | None) -> dict[str, str]:
        if not token or token not in self.players:
            raise ApiError(401, {"code": "bad_player", "message": "unknown player token"})
        return self.players[token]

    def new_player(self, body: dict[str, Any]) -> dict[str, Any]:
        token = secrets.token_hex(16)
        pid = secrets.token_hex(6)
        self.players[token] = {"id": pid, "name": str(body.get("name") or "Player")[:40]}
        return {"player_id": pid, "token": token, "name": self.players[token]["name"]}

    def create(self, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        me = self.player(token)
        specs = body.get("seats") or []
        players = int(body.get("players") or len(specs))
        if len(specs) != players:
            raise ApiError(400, {"code": "invalid_input", "message": "one seat per player", "field": "seats"})
        self.seed += 1
        settings = {
            "players": players,
            "seed": int(body.get("seed", self.seed)),
            "variant": body.get("variant", "standard"),
        }
        try:
            game = Game.from_settings(settings)
        except SmallworldError as e:
            raise ApiError(400, e.to_json()) from e
        seats: list[Seat] = []
        for i, spec in enumerate(specs):
            kind = spec.get("kind", "me")
            if kind in ("me", "hotseat"):
                seats.append(Seat(kind, me["name"], secrets.token_hex(16), me["id"]))
            elif kind == "invite":
                seats.append(Seat(kind, "", None, None, secrets.token_hex(8)))
            else:
                bot = make_bot("random" if spec.get("level") == "random" else "greedy")
                bot.start(game, i)
                seats.append(Seat("bot", f"Bot {i + 1}", bot=bot))
        gid = secrets.token_hex(5)
        m = Match(gid, settings, game, game.new_initial_state(), seats, body.get("clock", "turns"))
        m.history.append(m.st.clone())
        self.matches[gid] = m
        self.run_bots(m)
        return {
            "game_id": gid,
            "seats": [
                {"seat": i, "kind": s.kind, "token": s.token, "invite": s.invite}
                for i, s in enumerate(seats)
                if s.kind in ("me", "hotseat", "invite")
            ],
        }

    def match(self, gid: str) -> Match:
        if gid not in self.matches:
            raise ApiError(404, {"code": "no_game", "message": f"no game {gid!r}"})
        return self.matches[gid]

    def summary(self, m: Match, token: str | None = None) -> dict[str, Any]:
        me = self.players.get(token or "", {}).get("id")
        mine = [i for i, s in enumerate(m.seats) if me and s.player == me]
        return {
            "game_id": m.id,
            "settings": {k: v for k, v in m.settings.items() if k != "seed"},
            "clock": m.clock,
            "status": "over" if m.st.result is not None else "playing",
            "ply": m.st.ply,
            "to_act": m.st.acting_seat,
            "seats": [
                {"seat": i, "name": s.name, "kind": s.kind, "open": s.kind == "invite" and not s.token}
                for i, s in enumerate(m.seats)
            ],
            "mine": mine,
        }

    def join(self, m: Match, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        me = self.player(token)
        for i, s in enumerate(m.seats):
            if s.invite and body.get("invite") == s.invite:
                if s.player and s.player != me["id"]:
                    raise ApiError(409, {"code": "seat_taken", "message": "this seat is taken"})
                if not s.token:
                    s.token, s.player, s.name = secrets.token_hex(16), me["id"], me["name"]
                return {"seat": i, "token": s.token}
        raise ApiError(404, {"code": "bad_invite", "message": "no seat has this invite"})

    # --- play ---------------------------------------------------------------------------------
    def run_bots(self, m: Match) -> None:
        while m.st.result is None and m.seats[m.st.acting_seat].bot is not None:
            seat = m.st.acting_seat
            bot = m.seats[seat].bot
            assert bot is not None
            action = bot.choose(view_for(m.st, seat), m.st.legal_actions(), m.rng)
            m.st.apply(action, seat=seat)
            m.history.append(m.st.clone())

    def act(self, m: Match, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        seat = m.seat_of(token)
        if seat is None:
            raise ApiError(403, {"code": "bad_seat", "message": "this token holds no seat of this game"})
        if body.get("ply") != m.st.ply:
            raise ApiError(409, {"code": "stale_ply", "message": f"the game is at ply {m.st.ply}"})
        try:
            m.st.apply(body.get("action"), seat=seat)
        except SmallworldError as e:
            raise ApiError(422, e.to_json()) from e
        m.history.append(m.st.clone())
        self.run_bots(m)
        return payload.seat_state(m.st, seat)

    def updates(self, m: Match, token: str | None, since: int) -> list[dict[str, Any]]:
        seat = m.seat_of(token)
        return [payload.seat_state(s, seat) for s in m.history[since + 1 :]]


class Handler(BaseHTTPRequestHandler):
    lobby: Lobby

    def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
        pass

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _body(self) -> dict[str, Any]:
        n = int(self.headers.get("Content-Length") or 0)
        data = json.loads(self.rfile.read(n) or b"{}")
        return data if isinstance(data, dict) else {}

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        ptoken = self.headers.get("X-Player-Token")
        stoken = self.headers.get("X-Seat-Token")
        lobby = self.lobby
        try:
            with lobby.lock:
                if method == "GET" and (not parts or parts[0] in ("game", "replay", "join")):
                    return self._file(STATIC / "index.html")
                if method == "GET" and parts[0] == "static":
                    return self._file(STATIC.joinpath(*parts[1:]))
                if parts[:1] != ["api"]:
                    raise ApiError(404, {"code": "not_found", "message": url.path})
                rest = parts[1:]
                if method == "GET" and rest == ["words"]:
                    return self._json(200, payload.words(Game.from_settings({"players": 2, "seed": 0})))
                if method == "POST" and rest == ["players"]:
                    return self._json(200, lobby.new_player(self._body()))
                if method == "GET" and rest == ["players", "me", "games"]:
                    me = lobby.player(ptoken)["id"]
                    ms = [m for m in lobby.matches.values() if any(s.player == me for s in m.seats)]
                    return self._json(200, [lobby.summary(m, ptoken) for m in ms])
                if rest == ["games"]:
                    if method == "POST":
                        return self._json(200, lobby.create(ptoken, self._body()))
                    return self._json(200, [lobby.summary(m, ptoken) for m in lobby.matches.values()])
                if len(rest) >= 2 and rest[0] == "games":
                    m = lobby.match(rest[1])
                    tail = rest[2:]
                    if method == "GET" and not tail:
                        return self._json(200, {**lobby.summary(m, ptoken), "board": payload.board(m.game)})
                    if method == "GET" and tail == ["state"]:
                        return self._json(200, payload.seat_state(m.st, m.seat_of(stoken)))
                    if method == "GET" and tail == ["updates"]:
                        return self._json(200, lobby.updates(m, stoken, int(query.get("since", -1))))
                    if method == "POST" and tail == ["actions"]:
                        return self._json(200, lobby.act(m, stoken, self._body()))
                    if method == "POST" and tail == ["join"]:
                        return self._json(200, lobby.join(m, ptoken, self._body()))
                    if method == "GET" and len(tail) == 2 and tail[0] == "replay":
                        if m.st.result is None:
                            raise ApiError(403, {"code": "not_over", "message": "the game is not over"})
                        ply = int(tail[1])
                        if not 0 <= ply < len(m.history):
                            raise ApiError(404, {"code": "no_ply", "message": f"no ply {ply}"})
                        return self._json(
                            200, {**payload.seat_state(m.history[ply], None), "plies": len(m.history) - 1}
                        )
                raise ApiError(404, {"code": "not_found", "message": url.path})
        except ApiError as e:
            self._json(e.status, e.body)

    def _file(self, path: Path) -> None:
        path = path.resolve()
        if STATIC.resolve() not in path.parents or not path.is_file():
            return self._json(404, {"code": "not_found", "message": str(path.name)})
        ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            ctype = "text/javascript"
        self._send(200, path.read_bytes(), ctype)


def serve(port: int = 0) -> tuple[ThreadingHTTPServer, Lobby]:
    lobby = Lobby()
    handler = type("BoundHandler", (Handler,), {"lobby": lobby})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, lobby


if __name__ == "__main__":
    srv, _ = serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8123)
    print(f"http://127.0.0.1:{srv.server_address[1]}/")
    threading.Event().wait()
