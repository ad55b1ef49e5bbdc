"""A player's profile (issue 29, item 6; docs/players.md, "Profiles"): the races and powers played in
finished games with the wins with each (`GET /api/players/{id}/stats`), and the player's games a
page at a time with the ones they left (`GET /api/players/{id}/games`); on SQLite and PostgreSQL.
The units a seat played are checked against the game's own `pick` events (every combo is picked,
§3: the stats read them from the replayed states instead), its wins against the game's result
(the tie-break of §7 decides the winner)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import wait_game
from server.test_position_games import TIE
from smallworld.server.app import create_app

VS_RANDOM = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def any_client(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0)) as c:
        yield c


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(
    c: TestClient, token: str | None, seats: list[dict[str, Any]], name: str = "Prof"
) -> dict[str, Any]:
    r = c.post(
        "/api/games",
        json={"players": len(seats), "name": name, "seats": seats},
        headers=_auth(token) if token else {},
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _resigned_game(c: TestClient, token: str | None) -> tuple[str, str, int]:
    """A game against the random bot that its creator leaves at once (the greedy bot plays the seat
    to the end): (game, player token, the player's seat)."""
    g = _create(c, token, VS_RANDOM)
    gid, tok = g["game"], g.get("player_token") or token
    left = c.post(f"/api/games/{gid}/seats/0/leave", headers=_auth(g["seats"][0]["token"]))
    assert left.status_code == 200, left.text
    wait_game(c, gid, lambda s: s["status"] == "over")
    return gid, tok, 0


def _picked(c: TestClient, gid: str, seat: int) -> tuple[set[str], set[str]]:
    """The races and powers the game's `pick` events gave `seat` (public once it is over)."""
    moves = c.get(f"/api/games/{gid}/moves?since=0").json()["moves"]
    picks = [e for m in moves for e in m["events"] if e["type"] == "pick" and e["seat"] == seat]
    return {e["race"] for e in picks}, {e["power"] for e in picks}


def test_races_and_powers_played_count_each_finished_game_and_its_wins(any_client: TestClient) -> None:
    c = any_client
    g1, tok, seat = _resigned_game(c, None)
    g2, _, _ = _resigned_game(c, tok)
    me = c.get("/api/me/games", headers=_auth(tok)).json()["player"]["id"]
    # A game still waiting for a player counts in no stats.
    _create(c, tok, [{"kind": "creator"}, {"kind": "invite"}])
    expected: dict[str, list[int]] = {}
    wins = 0
    for gid in (g1, g2):
        won = seat in c.get(f"/api/games/{gid}").json()["result"]["winners"]
        wins += won
        races, powers = _picked(c, gid, seat)
        assert races and powers
        for u in races | powers:
            n, w = expected.get(u, [0, 0])
            expected[u] = [n + 1, w + won]
    r = c.get(f"/api/players/{me}/stats")
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["who"] == me and s["games"] == 2
    [ed] = s["editions"]
    assert (ed["edition"], ed["games"], ed["wins"]) == ("warcraft", 2, wins)
    got = {u["unit"]: [u["games"], u["wins"]] for u in ed["races"] + ed["powers"]}
    assert got == expected
    for u in ed["races"] + ed["powers"]:
        assert u["win_rate"] == round(u["wins"] / u["games"], 3)
    # Most played first.
    assert [u["games"] for u in ed["races"]] == sorted((u["games"] for u in ed["races"]), reverse=True)
    # The random bot played the other seat of both games from the start: its stats count them; the
    # greedy bot only stood in for the leaver, so the games are not the greedy bot's.
    bot = c.get("/api/players/bot:random/stats").json()
    assert bot["games"] == 2 and bot["editions"][0]["wins"] == 2 - wins
    assert c.get("/api/players/bot:greedy/stats").json() == {"who": "bot:greedy", "games": 0, "editions": []}


def test_a_players_games_come_a_page_at_a_time_with_the_games_they_left(any_client: TestClient) -> None:
    c = any_client
    left, tok, _ = _resigned_game(c, None)
    me = c.get("/api/me/games", headers=_auth(tok)).json()["player"]["id"]
    waiting = _create(c, tok, [{"kind": "creator"}, {"kind": "invite"}])["game"]
    playing = _create(c, tok, [{"kind": "creator"}, {"kind": "bot", "level": "random"}])["game"]
    other = _create(c, None, VS_RANDOM, name="Someone else")["game"]
    # "My games" lists only the seats the player holds: the game they left is not there.
    mine = [g["game"] for g in c.get("/api/me/games", headers=_auth(tok)).json()["games"]]
    assert left not in mine and {waiting, playing} <= set(mine)
    first = c.get(f"/api/players/{me}/games?limit=2").json()
    assert [g["game"] for g in first["games"]] == [playing, waiting] and first["next"] == waiting
    second = c.get(f"/api/players/{me}/games?limit=2&before={first['next']}").json()
    assert [g["game"] for g in second["games"]] == [left] and second["next"] is None
    gone = second["games"][0]
    assert gone["my_seats"] == [0] and gone["status"] == "over" and gone["result"] is not None
    assert gone["seats"][0]["abandoned"] is True and gone["seats"][0]["kind"] == "bot"
    assert all(g["my_seats"] == [0] for g in first["games"])
    assert other not in [g["game"] for g in first["games"] + second["games"]]
    # A bot's games: the seats it played from the start.
    bot = c.get("/api/players/bot:random/games?limit=50").json()
    assert {left, playing, other} <= {g["game"] for g in bot["games"]} and waiting not in {
        g["game"] for g in bot["games"]
    }
    assert all(g["my_seats"] == [1] for g in bot["games"])
    # A player with no games has none.
    assert c.get(f"/api/players/{'0' * 32}/games").json() == {"who": "0" * 32, "games": [], "next": None}


@pytest.mark.parametrize(
    ("path", "status", "code", "field"),
    [
        ("/api/players/nobody/stats", 404, "not_found", "who"),
        ("/api/players/nobody/games", 404, "not_found", "who"),
        ("/api/players/bot:/stats", 404, "not_found", "who"),
        (f"/api/players/{'a' * 32}/games?limit=0", 400, "invalid_input", "limit"),
        (f"/api/players/{'a' * 32}/games?limit=51", 400, "invalid_input", "limit"),
        (f"/api/players/{'a' * 32}/games?before=zz", 400, "invalid_input", "before"),
        (f"/api/players/{'a' * 32}/games?before={'b' * 16}", 400, "invalid_input", "before"),
    ],
)
def test_bad_profile_requests_are_refused_naming_the_field(
    client: TestClient, path: str, status: int, code: str, field: str
) -> None:
    r = client.get(path)
    assert r.status_code == status, r.text
    assert (r.json()["code"], r.json()["field"]) == (code, field)


def test_a_game_from_a_position_counts_the_combos_held_from_its_start(client: TestClient) -> None:
    # §7: the last turn of the game, seat 0 holding Archaeologist Humans from the position's start
    # (never picked in this game), seat 1 the random bot's; the tie-break of the rules decides.
    position = copy.deepcopy(TIE)
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    r = client.post("/api/games", json={"name": "Ada", "seats": seats, "position": position})
    assert r.status_code == 200, r.text
    gid, tok = r.json()["game"], r.json()["player_token"]
    me = client.get("/api/me/games", headers=_auth(tok)).json()["player"]["id"]
    left = client.post(f"/api/games/{gid}/seats/0/leave", headers=_auth(r.json()["seats"][0]["token"]))
    assert left.status_code == 200, left.text
    over = wait_game(client, gid, lambda s: s["status"] == "over")
    won = 0 in over["result"]["winners"]
    races, powers = _picked(client, gid, 0)
    [ed] = client.get(f"/api/players/{me}/stats").json()["editions"]
    assert {u["unit"] for u in ed["races"]} == races | {"humans"}
    assert {u["unit"] for u in ed["powers"]} == powers | {"archaeologist"}
    assert all((u["games"], u["wins"]) == (1, int(won)) for u in ed["races"] + ed["powers"])
