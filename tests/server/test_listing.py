"""The lobby's lists (`GET /api/games?status=&limit=&before=`, `GET /api/me/games`) and a finished
game's scores by round (`GET /api/games/{id}/scores`): newest first, a page at a time, nothing
hidden shown during play (§1.3: coin totals are secret until the end), refusals that change
nothing."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import assert_hides, keys, wait_game

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(client: TestClient, seats: list[dict[str, Any]], token: str | None = None) -> dict[str, Any]:
    r = client.post(
        "/api/games",
        json={"players": len(seats), "name": "Ann", "seats": seats},
        headers=_auth(token) if token else {},
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _ids(answer: dict[str, Any]) -> list[str]:
    return [g["game"] for g in answer["games"]]


def test_each_list_holds_its_status_newest_first_without_hidden_information(client: TestClient) -> None:
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    open_ = _create(client, [{"kind": "creator"}, {"kind": "open"}])
    token = open_["player_token"]
    time.sleep(0.01)
    playing = _create(client, [{"kind": "creator"}, {"kind": "bot", "level": "random"}], token)
    full = _create(client, [{"kind": "creator"}, {"kind": "invite"}], token)  # open, but no free open seat
    time.sleep(0.01)
    done = _create(client, BOTS)
    wait_game(client, done["game"], lambda g: g["status"] == "over")
    # The open list: only games with a seat anyone may take (as before, and the default).
    assert _ids(client.get("/api/games").json()) == [open_["game"]]
    assert _ids(client.get("/api/games?status=open").json()) == [open_["game"]]
    assert full["game"] not in _ids(client.get("/api/games?status=playing").json())
    # In progress, to watch: the summary and dates; no seed, no coins, no result.
    watch = client.get("/api/games?status=playing").json()
    assert _ids(watch) == [playing["game"]] and watch["next"] is None
    g = watch["games"][0]
    assert g["status"] == "playing" and g["result"] is None and g["created"] <= g["updated"]
    assert (g["round"], g["rounds"]) == (1, 10)  # 2 players: 10 rounds (§5)
    assert g["seats"][0]["name"] == "Ann"
    seed = svc.live[playing["game"]].seed
    assert_hides(watch, None, seed)
    assert not {"coins", "view", "seed", "moves"} & keys(watch)
    # Finished, to replay: with the result.
    over = client.get("/api/games?status=over").json()
    assert _ids(over) == [done["game"]]
    assert over["games"][0]["result"]["scores"] == svc.live[done["game"]].state.result["scores"]
    # My games: every game holding one of my seats, newest first, with my seats and the dates.
    mine = client.get("/api/me/games", headers=_auth(token)).json()
    assert _ids(mine) == [full["game"], playing["game"], open_["game"]]
    assert [g["my_seats"] for g in mine["games"]] == [[0], [0], [0]] and mine["next"] is None
    assert all(g["created"] > 0 for g in mine["games"])


def test_pages_follow_each_other_without_gap_or_repeat(client: TestClient) -> None:
    first = _create(client, [{"kind": "creator"}, {"kind": "open"}])
    token = first["player_token"]
    made = [first["game"]] + [
        _create(client, [{"kind": "creator"}, {"kind": "open"}], token)["game"] for _ in range(4)
    ]
    newest_first = made[::-1]
    seen: list[str] = []
    before = None
    pages = 0
    while True:
        q = "/api/games?status=open&limit=2" + (f"&before={before}" if before else "")
        page = client.get(q).json()
        assert len(page["games"]) <= 2
        seen += _ids(page)
        pages += 1
        before = page["next"]
        if before is None:
            break
        assert before == seen[-1]
    assert seen == newest_first and pages == 3
    # The same for my games.
    p1 = client.get("/api/me/games?limit=3", headers=_auth(token)).json()
    p2 = client.get(f"/api/me/games?limit=3&before={p1['next']}", headers=_auth(token)).json()
    assert _ids(p1) + _ids(p2) == newest_first and p2["next"] is None


def test_bad_list_parameters_are_refused_naming_the_field(client: TestClient) -> None:
    _create(client, [{"kind": "creator"}, {"kind": "open"}])
    for query, field in [
        ("status=finished", "status"),
        ("limit=0", "limit"),
        ("limit=51", "limit"),
        ("limit=x", "limit"),
        ("before=0123456789abcdef", "before"),  # no such game
        ("before=no%20id", "before"),
    ]:
        r = client.get(f"/api/games?{query}")
        assert r.status_code == 400, query
        body = r.json()
        assert (body["code"], body["field"]) == ("invalid_input", field), (query, body)
    r = client.get("/api/me/games")
    assert (r.status_code, r.json()["code"]) == (401, "bad_token")
    assert len(client.get("/api/games").json()["games"]) == 1  # nothing changed


def test_a_finished_games_scores_by_round_add_up_to_its_result(client: TestClient) -> None:
    """§7: the coins at the end win; §6.14: the end-of-turn scoring by item; §1.3: 5 coins each at
    the start. The coins by round agree with the replay's state at each round's start."""
    gid = _create(client, BOTS)["game"]
    g = wait_game(client, gid, lambda g: g["status"] == "over")
    replay = client.get(f"/api/games/{gid}/replay").json()
    r = client.get(f"/api/games/{gid}/scores")
    assert r.status_code == 200, r.text
    s = r.json()
    final = g["result"]["scores"]
    assert s["scores"] == final and s["rounds"][-1] == final
    rounds = max(st["round"] for st in replay["states"])
    assert len(s["rounds"]) == rounds + 1
    assert s["rounds"][0] == [5, 5]
    # Each round's line: the coins of the first state of the next round.
    for r_ in range(1, rounds):
        first = next(st for st in replay["states"] if st["round"] == r_ + 1)
        assert s["rounds"][r_] == [seat["coins"] for seat in first["seats"]], r_
    # The replay tells each move's decision in words, in every language.
    assert len(replay["decisions"]) == len(replay["actions"]) == g["ply"]
    assert replay["decisions"][0]["en"].startswith("pick ")
    for d in replay["decisions"]:
        assert set(d) == {"en", "pt", "de"} and all(t and "{" not in t for t in d.values()), d
    for seat, items in enumerate(s["breakdown"]):
        assert sum(i["coins"] for i in items) == final[seat]
        assert items[0] == {"item": "start", "coins": 5}
        assert any(i["item"] == "active_regions" and i["coins"] > 0 for i in items)
        assert all(i["item"] != "other" for i in items), items  # every coin's origin is told
        # The scoring items agree with the score events of the replay.
        scored = sum(
            v
            for st in replay["states"]
            for e in st.get("events", [])
            if e["type"] == "score" and e["seat"] == seat
            for v in e["items"].values()
        )
        by_scoring = {"active_regions", "declined_regions", "faction_bonus", "unit", "unit_declined"}
        assert sum(i["coins"] for i in items if i["item"] in by_scoring) == scored


def test_scores_are_refused_while_the_game_is_played(client: TestClient) -> None:
    g = _create(client, [{"kind": "creator"}, {"kind": "bot", "level": "random"}])
    r = client.get(f"/api/games/{g['game']}/scores")
    assert (r.status_code, r.json()["code"]) == (409, "not_over")
    r = client.get("/api/games/0123456789abcdef/scores")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
