"""A small stand-in for the game server (issue 12, smallworld/server) that the browser tests drive:
the same HTTP endpoints and JSON shapes as that server (docs/web.md lists them), serving the web
client's static files and real engine games held in memory, with the web client's `extras` merged
into each view as the server is asked to merge them. Bots move at once after each decision. No
WebSocket: the client falls back to polling `view` and `moves`, the same catch-up it does after a
lost socket.

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
from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.views import view_for
from smallworld.engine.model import protocol
from smallworld.engine.model.errors import SmallworldError
from smallworld.engine.model.protocol import redact_event
from smallworld.engine.model.state import State
from smallworld.server.service import Move  # the real server's record of an applied action
from smallworld.web import STATIC, payload


@dataclass
class Seat:
    kind: str  # "human" or "bot"
    name: str
    token: str | None = None
    player: str | None = None
    invite: str | None = None
    bot: Bot | None = None
    level: str | None = None  # a bot's level, as the server names it


@dataclass
class Match:
    id: str
    settings: dict[str, Any]  # public: no seed, the boards pinned
    game: Game
    st: State
    seats: list[Seat]
    clock: dict[str, Any] | None
    moves: list[Move] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    @property
    def status(self) -> str:
        if self.st.result is not None:
            return "over"
        return "open" if any(s.kind == "human" and s.token is None for s in self.seats) else "playing"

    def seat_of(self, token: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if token and s.token is not None and secrets.compare_digest(s.token, token):
                return i
        return None


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **more: str) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"code": code, "message": message, **more}


class Lobby:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.players: dict[str, dict[str, str]] = {}  # token -> {id, name}
        self.matches: dict[str, Match] = {}
        self.seed = 100

    def player(self, token: str | None) -> dict[str, str]:
        if not token or token not in self.players:
            raise ApiError(401, "bad_token", "a player token is required")
        return self.players[token]

    def new_player(self, body: dict[str, Any]) -> dict[str, Any]:
        token = secrets.token_hex(16)
        p = {"id": secrets.token_hex(6), "name": str(body.get("name") or "Player")[:40]}
        self.players[token] = p
        return {"player": p, "player_token": token}

    def create(self, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        me = self.player(token)
        specs = body.get("seats") or []
        players = int(body.get("players") or len(specs))
        if len(specs) != players:
            raise ApiError(400, "invalid_input", "seats: one entry per player", field="seats")
        self.seed += 1
        try:
            game = Game.from_settings(
                {"players": players, "seed": self.seed, "variant": body.get("variant", "standard")}
            )
        except SmallworldError as e:
            raise ApiError(400, **e.to_json()) from e
        public = {**game.settings.to_json(), "boards": [s.id for s in game.map.sides]}
        del public["seed"]
        seats: list[Seat] = []
        answer: list[dict[str, Any]] = []
        for i, spec in enumerate(specs):
            kind = spec.get("kind")
            out: dict[str, Any] = {"seat": i, "kind": kind}
            if kind == "creator":
                seats.append(Seat("human", me["name"], secrets.token_hex(16), me["id"]))
                out["token"] = seats[-1].token
            elif kind == "invite":
                seats.append(Seat("human", "Invited", invite=secrets.token_hex(8)))
                out["invite"] = seats[-1].invite
            elif kind == "bot":
                level = spec.get("level", "greedy")
                bot = make_bot("random" if level == "random" else "greedy")
                bot.start(game, i)
                seats.append(Seat("bot", f"{level} bot", bot=bot, level=level))
            else:
                raise ApiError(400, "invalid_input", f"seats[{i}].kind: creator, invite or bot")
            answer.append(out)
        gid = secrets.token_hex(5)
        kind = (body.get("clock") or {}).get("kind")
        m = Match(gid, public, game, game.new_initial_state(), seats, {"kind": kind} if kind else None)
        self.matches[gid] = m
        self.run_bots(m)
        return {"game": gid, "player": me, "seats": answer, "settings": public}

    def adopt(self, game: Game, st: State, human: int) -> tuple[str, str]:
        """A game already under way (a test's position): `human` is a creator's seat, the others
        bots. Answers the game id and the seat token."""
        me = self.new_player({"name": "Ada"})
        seats: list[Seat] = []
        for i in range(game.players):
            if i == human:
                seats.append(Seat("human", "Ada", secrets.token_hex(16), me["player"]["id"]))
            else:
                bot = make_bot("greedy")
                bot.start(game, i)
                seats.append(Seat("bot", "greedy bot", bot=bot, level="greedy"))
        public = {**game.settings.to_json(), "boards": [s.id for s in game.map.sides]}
        del public["seed"]
        gid = secrets.token_hex(5)
        self.matches[gid] = Match(gid, public, game, st, seats, None)
        token = seats[human].token
        assert token is not None
        return gid, token

    def match(self, gid: str) -> Match:
        if gid not in self.matches:
            raise ApiError(404, "not_found", f"no game {gid!r}")
        return self.matches[gid]

    def summary(self, m: Match) -> dict[str, Any]:
        return {
            "game": m.id,
            "status": m.status,
            "ply": m.st.ply,
            "settings": m.settings,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "joined": s.kind == "bot" or s.token is not None,
                    "open": False,
                    "bot": s.level,
                    "away": False,
                }
                for i, s in enumerate(m.seats)
            ],
            "clock": m.clock,
            "title": "",
            "acting_seat": m.st.acting_seat,
            "result": m.st.result,
        }

    def join(self, m: Match, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        me = self.player(token)
        for i, s in enumerate(m.seats):
            if s.invite and s.token is None and body.get("invite") == s.invite:
                s.token, s.player, s.name = (
                    secrets.token_hex(16),
                    me["id"],
                    str(body.get("name") or me["name"]),
                )
                self.run_bots(m)
                return {"game": m.id, "seat": i, "token": s.token, "player": me}
        raise ApiError(409, "seat_taken", "no free seat matches (taken, or a wrong invitation)")

    def run_bots(self, m: Match) -> None:
        while m.status == "playing" and m.seats[m.st.acting_seat].bot is not None:
            seat = m.st.acting_seat
            bot = m.seats[seat].bot
            assert bot is not None
            self.apply(m, seat, bot.choose(view_for(m.st, seat), m.st.legal_actions(), m.rng), "bot")

    def apply(self, m: Match, seat: int, action: Any, by: str) -> None:
        ply = m.st.ply
        m.st.apply(action, seat=seat)
        data = action if isinstance(action, dict) else protocol.action_to_json(m.game, action)
        m.moves.append(Move(ply, seat, by, data, list(m.st.events)))

    def act(self, m: Match, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        seat = m.seat_of(token)
        if seat is None or body.get("seat") != seat:
            raise ApiError(403, "bad_token", "the token is not a seat token of this game")
        if m.status == "open":
            raise ApiError(409, "not_started", "the game starts when every seat is taken")
        if body.get("ply") != m.st.ply:
            raise ApiError(409, "stale_ply", f"ply {body.get('ply')} is past: the game is at ply {m.st.ply}")
        try:
            self.apply(m, seat, body.get("action"), "human")
        except SmallworldError as e:
            raise ApiError(422, **e.to_json()) from e
        move = self.move_for(m, m.moves[-1], seat)
        self.run_bots(m)
        return {"game": m.id, "ply": move["ply"] + 1, "move": move}

    def move_for(self, m: Match, mv: Move, seat: int | None) -> dict[str, Any]:
        over = m.st.result is not None
        seen = m.game.variant.coins_seen_by(m.st, seat)
        events = [redact_event(m.game, e, seat, seen, over) for e in mv.events]
        return {
            "ply": mv.ply,
            "seat": mv.seat,
            "by": mv.by,
            "action": mv.action,
            "events": events,
            "texts": payload.event_texts(m.game, events, seat),
        }

    def view(self, m: Match, seat: int | None) -> dict[str, Any]:
        return {**self.summary(m), **payload.seat_view(m.st, seat)}

    def replay(self, m: Match) -> dict[str, Any]:
        if m.status != "over":
            raise ApiError(403, "not_over", "the replay is public once the game is over")
        st = m.game.new_initial_state()
        states, texts = [state_to_json(st)], [payload.event_texts(m.game, [], None)]
        for mv in m.moves:
            st.apply(mv.action, seat=mv.seat)
            states.append(state_to_json(st))
            texts.append(payload.event_texts(m.game, states[-1]["events"], None))
        return {
            "game": m.id,
            "settings": m.settings,
            "seats": self.summary(m)["seats"],
            "actions": [{"ply": mv.ply, "seat": mv.seat, "by": mv.by, "action": mv.action} for mv in m.moves],
            "states": states,
            "texts": texts,
            "result": m.st.result,
        }


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
        auth = self.headers.get("Authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        lobby = self.lobby
        try:
            with lobby.lock:
                if method == "GET" and not parts:
                    return self._file(STATIC / "index.html")
                if method == "GET" and parts[0] == "static":
                    return self._file(STATIC.joinpath(*parts[1:]))
                if parts[:1] != ["api"]:
                    raise ApiError(404, "not_found", url.path)
                rest = parts[1:]
                if method == "GET" and rest == ["words"]:
                    edition = query.get("edition", "warcraft")
                    game = Game.from_settings({"players": 2, "seed": 0, "edition": edition})
                    return self._json(200, payload.words(game))
                if method == "POST" and rest == ["players"]:
                    return self._json(200, lobby.new_player(self._body()))
                if method == "GET" and rest == ["me", "games"]:
                    me = lobby.player(token)
                    games = [
                        {
                            **lobby.summary(m),
                            "my_seats": [i for i, s in enumerate(m.seats) if s.player == me["id"]],
                        }
                        for m in lobby.matches.values()
                        if any(s.player == me["id"] for s in m.seats)
                    ]
                    return self._json(200, {"player": me, "games": games})
                if rest == ["games"]:
                    if method == "POST":
                        return self._json(200, lobby.create(token, self._body()))
                    games = [lobby.summary(m) for m in lobby.matches.values() if m.status == "open"]
                    return self._json(200, {"games": games})
                if len(rest) >= 2 and rest[0] == "games":
                    m = lobby.match(rest[1])
                    tail = rest[2:]
                    seat = m.seat_of(token)
                    if method == "GET" and not tail:
                        return self._json(200, lobby.summary(m))
                    if method == "GET" and tail == ["board"]:
                        return self._json(200, payload.board(m.game))
                    if method == "GET" and tail == ["view"]:
                        return self._json(200, lobby.view(m, seat))
                    if method == "GET" and tail == ["moves"]:
                        since = int(query.get("since", 0))
                        moves = [lobby.move_for(m, mv, seat) for mv in m.moves[max(0, since) :]]
                        return self._json(200, {"game": m.id, "seat": seat, "ply": m.st.ply, "moves": moves})
                    if method == "POST" and tail == ["act"]:
                        return self._json(200, lobby.act(m, token, self._body()))
                    if method == "POST" and tail == ["join"]:
                        return self._json(200, lobby.join(m, token, self._body()))
                    if method == "GET" and tail == ["replay"]:
                        return self._json(200, lobby.replay(m))
                raise ApiError(404, "not_found", url.path)
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
