"""Tournaments (issue 29, item 7; docs/players.md, Tournaments): Swiss-like rounds at tables by
standings, no repeated tables where avoidable, points by place, the next round as soon as the last
game of a round ends, standings with their tie-breaks."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import ON_BOTH_STORES, browser_of
from smallworld.server.app import create_app
from smallworld.server.errors import ServerError
from smallworld.server.tournaments import points, seat_round, table_sizes

PW = "correct horse battery"


def test_tables_are_full_or_one_short_or_filled_by_bots() -> None:
    assert table_sizes(6, 3, False) == [(3, 0), (3, 0)]
    assert table_sizes(7, 4, False) == [(4, 0), (3, 0)]
    assert table_sizes(10, 4, False) == [(4, 0), (3, 0), (3, 0)]
    assert table_sizes(7, 4, True) == [(4, 0), (3, 1)]
    assert table_sizes(9, 2, False) == [(3, 0), (2, 0), (2, 0), (2, 0)]  # a table of 2 and one of 3
    assert table_sizes(4, 5, False) == [(4, 0)]
    with pytest.raises(ServerError):
        table_sizes(5, 3, False)  # 5 players cannot sit at tables of 3 (a table of 2 is too small)
    assert sum(p for p, _ in table_sizes(64, 5, False)) == 64


def test_points_by_place_and_ties_share_them() -> None:
    # Table of 4: 3, 2, 1, 0; the winner (§7 tie-break decided) first.
    assert points({"scores": [10, 30, 20, 5], "winners": [1]}, 4) == [1.0, 3.0, 2.0, 0.0]
    # Two tied on coins below the winner share 1 + 0.
    assert points({"scores": [30, 10, 10], "winners": [0]}, 3) == [2.0, 0.5, 0.5]


def test_a_round_avoids_tables_that_met_before_where_it_can() -> None:
    order = list("ABCDEFGH")
    met = {frozenset(p) for t in ("ABCD", "EFGH") for p in itertools.combinations(t, 2)}
    tables = seat_round(order, [(4, 0), (4, 0)], met)
    again = sum(frozenset(p) in met for t in tables for p in itertools.combinations(t, 2))
    assert again == 4  # the fewest possible: each table of 4 holds two from each earlier table
    assert sorted(itertools.chain(*tables)) == order


@pytest.fixture
def app(db_url: str) -> Any:
    return create_app(db_url, rate=0, socket_rate=0)


@ON_BOTH_STORES
def test_a_six_player_two_round_tournament_is_played_to_its_standings(app: Any) -> None:
    server = TestClient(app, base_url="http://testserver").__enter__()  # the service starts once
    players = []
    for name in ["Ana", "Ben", "Cid", "Dee", "Eve", "Fay"]:
        c = browser_of(server)
        r = c.post("/api/accounts", json={"name": name, "password": PW})
        players.append((c, {"X-CSRF-Token": r.json()["csrf"]}, name))
    try:
        org, h, _ = players[0]
        made = org.post(
            "/api/tournaments", json={"name": "Cup", "rounds": 2, "table": 3, "bots": False}, headers=h
        )
        assert made.status_code == 200, made.text
        tid = made.json()["tournament"]
        too_few = org.post(f"/api/tournaments/{tid}/start", headers=h)
        assert too_few.status_code == 409 and too_few.json()["code"] == "not_started"
        for c, hh, _ in players:
            assert c.post(f"/api/tournaments/{tid}/join", headers=hh).status_code == 200
        assert players[1][0].post(f"/api/tournaments/{tid}/start", headers=players[1][1]).status_code == 403
        started = org.post(f"/api/tournaments/{tid}/start", headers=h).json()
        assert started["status"] == "playing" and started["round"] == 1
        assert [len(g["players"]) for g in started["games"]] == [3, 3]
        for rnd in (1, 2):
            _play_round_by_bots(players, rnd)
            t = _wait(org, tid, lambda t, r=rnd: t["round"] > r or t["status"] == "over")
        assert t["status"] == "over" and t["round"] == 2 and len(t["games"]) == 4
        st = t["standings"]
        assert [s["place"] for s in st] == [1, 2, 3, 4, 5, 6]
        assert sum(s["points"] for s in st) == pytest.approx(4 * 3)  # 2 + 1 + 0 at each of 4 tables
        assert all(s["games"] == 2 for s in st)
        keys = [(-s["points"], -s["coins"], -s["buchholz"], s["player"]["name"]) for s in st]
        assert keys == sorted(keys)
        # Round 2 repeated no more pairs than two tables of 3 out of 6 must (one pair each).
        tables = [set(g["players"]) for g in t["games"]]
        met = {frozenset(p) for tb in tables[:2] for p in itertools.combinations(tb, 2)}
        assert sum(frozenset(p) in met for tb in tables[2:] for p in itertools.combinations(tb, 2)) == 2
        listed = org.get("/api/tournaments").json()["tournaments"]
        assert listed[0]["tournament"] == tid and listed[0]["status"] == "over"
    finally:
        for c, _, _ in players:
            c.close()
        server.__exit__(None, None, None)


def _play_round_by_bots(players: list[tuple[TestClient, dict[str, str], str]], rnd: int) -> None:
    """Each player hands their seat of the round's game to the random bot (their result stays theirs)."""
    for c, h, _ in players:
        games = [g for g in c.get("/api/me/games").json()["games"] if g["status"] == "playing"]
        assert len(games) == 1, (rnd, games)
        g = games[0]
        (seat,) = g["my_seats"]
        r = c.post(f"/api/games/{g['game']}/seats/{seat}/bot", json={"level": "random"}, headers=h)
        assert r.status_code == 200, r.text


def _wait(c: TestClient, tid: str, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while True:
        t = c.get(f"/api/tournaments/{tid}").json()
        if done(t):
            return dict(t)
        assert time.monotonic() < deadline, t
        time.sleep(0.1)


@ON_BOTH_STORES
def test_joins_and_starts_at_the_same_moment_seat_every_entrant_once(app: Any) -> None:
    """A join sent as the organiser starts is either refused or seated in round 1, never left out of
    the tables; two starts at once start the tournament once (docs/players.md, Tournaments)."""
    server = TestClient(app, base_url="http://testserver").__enter__()
    people = []
    for name in ["Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]:
        c = browser_of(server)
        r = c.post("/api/accounts", json={"name": name, "password": PW})
        people.append((c, {"X-CSRF-Token": r.json()["csrf"]}))
    try:
        org, h = people[0]
        for attempt in range(3):
            body = {"name": f"Race {attempt}", "rounds": 1, "table": 3, "bots": True}
            tid = org.post("/api/tournaments", json=body, headers=h).json()["tournament"]
            for c, hh in people[:4]:
                assert c.post(f"/api/tournaments/{tid}/join", headers=hh).status_code == 200
            calls = [(c, hh, "join") for c, hh in people[4:]] + [(org, h, "start")] * 2
            go = threading.Barrier(len(calls))

            def send(call: tuple[TestClient, dict[str, str], str], tid: str = tid, go: Any = go) -> Any:
                c, hh, what = call
                go.wait()
                return c.post(f"/api/tournaments/{tid}/{what}", headers=hh)

            with ThreadPoolExecutor(len(calls)) as pool:
                answers = list(pool.map(send, calls))
            late = len(people) - 4
            joined, started = answers[:late], answers[late:]
            assert sorted(r.status_code for r in started) == [200, 409], [r.text for r in started]
            assert {r.json()["code"] for r in started if r.status_code == 409} == {"game_over"}
            assert all(r.status_code == 200 or r.json()["code"] == "game_over" for r in joined)
            t = org.get(f"/api/tournaments/{tid}").json()
            entrants = sorted(r["player"]["name"] for r in t["standings"])
            assert len(entrants) == 4 + sum(r.status_code == 200 for r in joined)
            seated = sorted(n for g in t["games"] if g["round"] == 1 for n in g["players"] if n in entrants)
            assert seated == entrants, (attempt, t["games"])
    finally:
        for c, _ in people:
            c.close()
        server.__exit__(None, None, None)


def test_bad_tournaments_are_refused(app: Any) -> None:
    with TestClient(app, base_url="http://testserver") as c:
        assert c.post("/api/tournaments", json={"name": "X"}).json()["code"] == "account_required"
        h = {"X-CSRF-Token": c.post("/api/accounts", json={"name": "Org", "password": PW}).json()["csrf"]}
        for body, field in [
            ({"name": ""}, "name"),
            ({"name": "X", "rounds": 0}, "rounds"),
            ({"name": "X", "table": 6}, "table"),
            ({"name": "X", "bots": "yes"}, "bots"),
            ({"name": "X", "pace": "blitz"}, "pace"),
            ({"name": "X", "edition": "chess"}, "settings"),
        ]:
            r = c.post("/api/tournaments", json=body, headers=h)
            assert r.status_code == 400 and r.json()["field"] == field, (body, r.text)
        assert c.get("/api/tournaments/" + "0" * 16).json()["code"] == "not_found"
