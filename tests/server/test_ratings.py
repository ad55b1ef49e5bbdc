"""Ratings (issue 29, item 2): OpenSkill Plackett-Luce per pool, changed only when a rated game ends,
once; rated games only between accounts and bots; the leaderboard and a player's history."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from server.helpers import ON_BOTH_STORES, another_browser, wait_game
from smallworld.server import ratings
from smallworld.server import schema as t
from smallworld.server.app import create_app
from smallworld.server.store import Store

PW = "correct horse battery"


def test_places_put_the_winners_first_then_coins_and_teams_by_faction_score() -> None:
    # §7: the winner (after the tie-break) first; the others by coins, equal coins tied.
    groups, ranks = ratings.places({"scores": [30, 41, 30, 12], "winners": [1]}, [0, 1, 2, 3])
    assert groups == [[0], [1], [2], [3]] and ranks == [1, 0, 1, 2]
    # A tie on coins broken by race tokens: the winner of the tie-break is first, alone.
    _, ranks = ratings.places({"scores": [40, 40], "winners": [1]}, [0, 1])
    assert ranks == [1, 0]
    # A shared victory is a tie.
    _, ranks = ratings.places({"scores": [40, 40, 3], "winners": [0, 1]}, [0, 1, 2])
    assert ranks == [0, 0, 1]
    # §11.4: factions are the teams of the model, ranked by their score.
    groups, ranks = ratings.places({"scores": [10, 30, 25, 20], "winners": [0, 2]}, ["a", "h", "a", "h"])
    assert groups == [[0, 2], [1, 3]] and ranks == [0, 1]


def test_the_shown_rating_starts_at_1000_and_is_conservative() -> None:
    assert ratings.shown(ratings.MU, ratings.SIGMA)["rating"] == 1000
    assert ratings.shown(30.0, 2.0) == {"rating": 1960, "uncertainty": 160}
    # An estimate that only ever lost (the random bot against three greedy) is shown at the floor.
    assert ratings.shown(-11.174, 4.62) == {"rating": ratings.FLOOR, "uncertainty": 370}
    assert ratings.shown(-5.246, 3.879)["rating"] == 325 > ratings.FLOOR


@pytest.fixture
def web(db_url: str):  # type: ignore[no-untyped-def]
    with TestClient(create_app(db_url, rate=0, socket_rate=0), base_url="http://testserver") as c:
        yield c


def _account(c: TestClient, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PW})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf"])


def _rated_game_played_by_bots(c: TestClient, csrf: str, level: str = "random") -> str:
    h = {"X-CSRF-Token": csrf}
    seats = [{"kind": "creator"}, {"kind": "bot", "level": level}]
    r = c.post("/api/games", json={"players": 2, "seats": seats, "rated": True}, headers=h)
    assert r.status_code == 200, r.text
    gid = str(r.json()["game"])
    assert c.get(f"/api/games/{gid}").json()["rated"] is True
    # The account's seat is handed to a bot: its results still count as the account's (item 5).
    handed = c.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"}, headers=h)
    assert handed.status_code == 200, handed.text
    wait_game(c, gid, lambda g: g["status"] == "over")
    return gid


def _wait_rated(c: TestClient, who: str, games: int) -> list[dict]:  # type: ignore[type-arg]
    import time

    deadline = time.monotonic() + 30
    while True:
        rs = c.get(f"/api/players/{who}/ratings").json()["ratings"]
        if rs and rs[0]["games"] >= games:
            return list(rs)
        assert time.monotonic() < deadline, rs
        time.sleep(0.05)


@ON_BOTH_STORES
def test_a_rated_game_changes_both_ratings_once_and_the_leaderboard_shows_them(web: TestClient) -> None:
    csrf = _account(web, "Alice")
    me = web.get("/api/account").json()["player"]["id"]
    gid = _rated_game_played_by_bots(web, csrf)
    result = web.get(f"/api/games/{gid}").json()["result"]
    mine = _wait_rated(web, me, 1)
    bot = _wait_rated(web, "bot:random", 1)
    assert mine[0]["pool"] == bot[0]["pool"] == "warcraft/standard/turn"
    won = 0 in result["winners"]
    assert mine[0]["wins"] == int(won) and bot[0]["wins"] == int(1 in result["winners"])
    # The winner's mu rose above the start, the loser's fell (a shared victory moves neither far).
    if won != (1 in result["winners"]):
        up, down = (mine, bot) if won else (bot, mine)
        assert up[0]["mu"] > ratings.MU > down[0]["mu"]
    assert mine[0]["sigma"] < ratings.SIGMA
    assert [p["game"] for p in mine[0]["history"]] == [gid]
    board = web.get("/api/ratings", params={"pool": "warcraft/standard/turn"}).json()
    assert board["total"] == 2
    names = {e.get("bot") or e["player"]["name"] for e in board["players"]}
    assert names == {"Alice", "random"}
    assert [e["place"] for e in board["players"]] == [1, 2]
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    # A page of one: the second place alone, the total still both.
    page = web.get("/api/ratings", params={"pool": "warcraft/standard/turn", "limit": 1, "offset": 1}).json()
    assert page["total"] == 2 and page["offset"] == 1
    assert [(e["place"], e["rating"]) for e in page["players"]] == [(2, board["players"][1]["rating"])]
    # Rated once: a second rating of the same game changes nothing.
    svc = web.app.state.service  # type: ignore[attr-defined]
    live = svc.live[gid]
    seats = [dict(s) for s in live.seats]
    assert not ratings.rate_game(svc.store, gid, "warcraft/standard/turn", seats, result, [0, 1])
    assert _wait_rated(web, me, 1)[0]["games"] == 1


def test_a_casual_game_changes_no_rating(web: TestClient) -> None:
    csrf = _account(web, "Bob")
    h = {"X-CSRF-Token": csrf}
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    gid = web.post("/api/games", json={"players": 2, "seats": seats}, headers=h).json()["game"]
    web.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"}, headers=h)
    wait_game(web, gid, lambda g: g["status"] == "over")
    me = web.get("/api/account").json()["player"]["id"]
    assert web.get(f"/api/players/{me}/ratings").json()["ratings"] == []
    assert web.get("/api/ratings").json()["total"] == 0


def test_rated_games_are_for_accounts_only_and_one_seat_each(web: TestClient, db_url: str) -> None:
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    anon = web.post("/api/games", json={"players": 2, "name": "Ann", "seats": seats, "rated": True})
    assert anon.status_code == 403 and anon.json()["code"] == "account_required"
    csrf = _account(web, "Carol")
    h = {"X-CSRF-Token": csrf}
    hot = web.post(
        "/api/games", json={"players": 2, "seats": [{"kind": "creator"}] * 2, "rated": True}, headers=h
    )
    assert hot.status_code == 400 and hot.json()["field"] == "rated"
    from_position = web.post(
        "/api/games", json={"players": 2, "seats": seats, "rated": True, "position": {}}, headers=h
    )
    assert from_position.status_code == 400 and from_position.json()["field"] in ("rated", "position")
    bad = web.post("/api/games", json={"players": 2, "seats": seats, "rated": "yes"}, headers=h)
    assert bad.status_code == 400 and bad.json()["field"] == "rated"
    # An invitation to a rated game is taken by an account, not by an anonymous player.
    inv = web.post(
        "/api/games",
        json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}], "rated": True},
        headers=h,
    ).json()
    code = next(s["invite"] for s in inv["seats"] if s.get("invite"))
    with another_browser(web) as other:
        r = other.post(f"/api/games/{inv['game']}/join", json={"invite": code, "name": "Dave"})
        assert r.status_code == 403 and r.json()["code"] == "account_required"
        other_csrf = _account(other, "Dave")
        r = other.post(
            f"/api/games/{inv['game']}/join",
            json={"invite": code, "name": "Carol2"},
            headers={"X-CSRF-Token": other_csrf},
        )
        assert r.status_code == 200, r.text
        seats_now = web.get(f"/api/games/{inv['game']}").json()["seats"]
        assert [s["name"] for s in seats_now] == ["Carol", "Dave"]  # accounts' names, not chosen ones


def test_bad_leaderboard_and_player_queries_are_refused(web: TestClient) -> None:
    assert web.get("/api/ratings", params={"pool": "x"}).json()["code"] == "invalid_input"
    assert web.get("/api/ratings", params={"limit": 0}).status_code == 400
    assert web.get("/api/players/nobody/ratings").json()["code"] == "not_found"
    empty = {"who": "bot:greedy", "name": None, "ratings": [], "played": 0, "abandoned": 0}
    assert web.get("/api/players/bot:greedy/ratings").json() == empty


def test_the_bot_levels_are_named_with_the_ladders_rating(db_url: str) -> None:
    # Issue 30, item 3: the lobby's levels, easiest first, each with its rating shown as a player's.
    with TestClient(create_app(db_url)) as web:
        body = web.get("/api/bots").json()
    levels = body["levels"]
    named = [lv for lv in levels if lv["difficulty"]]
    assert [lv["difficulty"] for lv in named] == ["easy", "medium", "hard"]
    assert [lv["level"] for lv in named] == ["random", "greedy", "mcts"]
    two = [lv["ratings"]["2"]["rating"] for lv in named]
    assert two == sorted(two) and len(set(two)) == 3
    assert all(lv["ratings"]["2"]["games"] > 0 and lv["ratings"]["2"]["uncertainty"] > 0 for lv in named)
    # A level the server offers that the ladder did not rate is listed last, unrated.
    assert levels[-1] == {"level": "openspiel-mcts", "difficulty": None, "ratings": {}}
    assert "docs/ladder.md" in body["source"]


@ON_BOTH_STORES
def test_games_that_end_at_once_are_all_rated_and_no_update_is_lost(db_url: str) -> None:
    """Games ending at the same moment (a tournament's tables, several processes) are rated at once,
    each in its own transaction: the bot they share gets every game, its rating computed from the one
    before (on PostgreSQL two transactions could both read it, or both add its first row)."""
    store = Store(db_url)
    pool, rounds = "warcraft/standard/turn", 6
    try:
        now = time.time()
        with store._begin() as c:
            for i in range(2 * rounds):
                row = {"settings": "{}", "seed": "1", "status": "over", "ply": 1, "meta": "{}"}
                c.execute(insert(t.games).values(id=f"g{i}", created=now, updated=now, **row))
        result = {"scores": [30, 10], "winners": [0]}

        def rate(i: int, start: threading.Barrier) -> bool:
            seats = [{"kind": "human", "player_id": f"p{i}"}, {"kind": "bot", "bot": "random"}]
            start.wait()
            return ratings.rate_game(store, f"g{i}", pool, seats, result, [0, 1])

        for r in range(rounds):
            start = threading.Barrier(2)
            with ThreadPoolExecutor(2) as two:
                assert list(two.map(rate, [2 * r, 2 * r + 1], [start, start])) == [True, True], f"round {r}"
        (bot,) = ratings.ratings_of(store, "bot:random")
        assert bot["games"] == 2 * rounds and bot["wins"] == 0
        # Each loss lowered the mu the previous one left: no two were computed from the same one.
        mus = [ratings.MU] + [p["mu"] for p in _history(store, "bot:random")]
        assert all(a > b for a, b in itertools.pairwise(mus)), mus
    finally:
        store.close()


def _history(store: Store, who: str) -> list[dict]:  # type: ignore[type-arg]
    with store.engine.connect() as c:
        rows = c.execute(select(t.rating_history).where(t.rating_history.c.who == who)).all()
    return sorted((dict(r._mapping) for r in rows), key=lambda h: -h["mu"])
