"""Casual games from a position (issue 28, smallworld/server/positions.py): `POST /api/games` with a
position document starts the game there; the loader refuses a bad one; the game continues, is
rebuilt after a restart and replayed from the position; its dice stay the server's secret."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import assert_hides
from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.server.app import create_app
from smallworld.server.positions import first_state
from smallworld.server.store import Store

# §7: the last turn of the game; seat 1 declines (its 2 regions In Decline bring it to 8 coins), a
# tie on coins 8-8 that the race tokens on the boards break, 3 against 2.
TIE = {
    "format": "smallworld-position/1",
    "title": "a tie on coins in the last turn",
    "settings": {"edition": "warcraft", "players": 2, "seed": 7, "boards": ["L2a"]},
    "position": {
        "round": 10,
        "first_seat": 0,
        "turn_seat": 1,
        "phase": "start",
        "seats": [
            {"coins": 8, "active": "humans", "power": "archaeologist"},
            {"coins": 6, "active": "blood_elves", "power": "mining"},
        ],
        "regions": {
            "L2a:12": {"race": "humans", "tokens": 3},
            "L2a:6": {"race": "blood_elves", "tokens": 1},
            "L2a:7": {"race": "blood_elves", "tokens": 1},
        },
    },
}
# Round 9 of 10, seat 0 to start its turn: two turns each are left to play.
LATE = {
    "settings": {"boards": ["L2a"]},
    "position": {
        "round": 9,
        "first_seat": 0,
        "turn_seat": 0,
        "phase": "start",
        "seats": [
            {"coins": 20, "active": "orcs", "power": "mining"},
            {"coins": 21, "active": "humans", "power": "archaeologist"},
        ],
        "regions": {"L2a:12": {"race": "orcs", "tokens": 4}, "L2a:6": {"race": "humans", "tokens": 3}},
    },
    "rolls": [3, 3],
}


def _create(client: TestClient, doc: Any, seats: list[dict[str, Any]], **more: Any) -> Any:
    return client.post("/api/games", json={"name": "Ada", "seats": seats, "position": doc, **more})


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_bad_position_is_refused_with_the_loaders_error_and_nothing_is_made(client: TestClient) -> None:
    me = client.post("/api/players", json={"name": "Ada"}).json()["player_token"]
    seats = [{"kind": "bot"}, {"kind": "creator"}]
    bad = copy.deepcopy(TIE)
    bad["position"]["round"] = 11  # a 2-player game has 10 rounds (§5)
    cases: list[tuple[Any, list[dict[str, Any]], str, str]] = [
        (bad, seats, "position.round", "position.round"),
        ({**TIE, "fragment": True}, seats, "position.fragment", "unknown field"),
        ({**TIE, "actions": ["decline"]}, seats, "position.actions", "unknown field"),
        ({**TIE, "format": "chess"}, seats, "position.format", "expected"),
        ({**TIE, "rolls": [4]}, seats, "rolls", "die faces"),
        (TIE, [*seats, {"kind": "bot"}], "seats", "settings.players is 2, the request's 3"),
        ([1, 2], seats, "position", "object"),
        ({**TIE, "settings": {**TIE["settings"], "players": 9}}, seats, "seats", "players is 9"),
    ]
    for doc, s, field, words in cases:
        r = client.post("/api/games", json={"seats": s, "position": doc}, headers=_auth(me))
        assert r.status_code == 400, (doc, r.text)
        err = r.json()
        assert err["code"] == "invalid_input" and err["field"] == field and words in err["message"], err
    # A setting of the request that contradicts the document's.
    r = client.post(
        "/api/games", json={"seats": seats, "position": TIE, "edition": "classic"}, headers=_auth(me)
    )
    assert r.status_code == 400 and r.json()["field"] == "edition", r.text
    # A game that is over at the position.
    over = copy.deepcopy(TIE)
    over["position"]["phase"] = "over"
    r = client.post("/api/games", json={"seats": seats, "position": over}, headers=_auth(me))
    assert r.status_code == 400 and r.json()["field"].startswith("position."), r.text
    # Nothing was made.
    assert client.get("/api/me/games", headers=_auth(me)).json()["games"] == []


def test_a_game_from_a_position_starts_there_and_says_so(client: TestClient) -> None:
    """§7: from the last turn, the human's decline ends the game on a tie that the race tokens break."""
    r = _create(client, TIE, [{"kind": "bot"}, {"kind": "creator"}])
    assert r.status_code == 200, r.text
    g = r.json()
    gid, token = g["game"], g["seats"][1]["token"]
    s = client.get(f"/api/games/{gid}").json()
    assert s["from_position"] is True and s["status"] == "playing" and s["ply"] == 0 and s["acting_seat"] == 1
    assert s["settings"]["boards"] == ["L2a"] and "seed" not in s["settings"]
    # The document's seed 7 is not the game's: the server's secret key and keyed generator are.
    assert s["settings"]["rng"] == "blake2b"
    v = client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(token)).json()
    assert v["view"]["round"] == 10 and {"kind": "decline"} in v["legal"]
    a = client.post(
        f"/api/games/{gid}/act",
        json={"seat": 1, "ply": 0, "action": {"kind": "decline"}},
        headers=_auth(token),
    )
    assert a.status_code == 200, a.text
    s = client.get(f"/api/games/{gid}").json()
    assert s["status"] == "over" and s["result"]["scores"] == [8, 8] and s["result"]["winners"] == [0]
    assert s["result"]["tie_break"]["by"] == "race_tokens"
    replay = client.get(f"/api/games/{gid}/replay").json()
    first = replay["states"][0]
    assert first["round"] == 10 and [x["coins"] for x in first["seats"]] == [8, 6] and first["ply"] == 0
    assert replay["position"]["position"]["round"] == 10 and len(replay["states"]) == 2
    assert replay["states"][-1]["result"] == s["result"]
    # A game from the initial state says it is not from a position.
    r = client.post("/api/games", json={"name": "Bo", "seats": [{"kind": "creator"}, {"kind": "bot"}]})
    assert client.get(f"/api/games/{r.json()['game']}").json()["from_position"] is False


def test_a_game_from_a_position_continues_and_is_rebuilt_after_a_restart(tmp_path: Path) -> None:
    """A hot-seat game from round 9 played to its end with random legal actions, the server restarted
    in the middle: the rebuilt game (position + stored log) is the game that was played."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    rng = random.Random(3)

    def play(client: TestClient, gid: str, tokens: dict[int, str], upto: int | None) -> dict[str, Any]:
        while True:
            s = client.get(f"/api/games/{gid}").json()
            if s["status"] == "over" or (upto is not None and s["ply"] >= upto):
                return s
            seat = s["acting_seat"]
            v = client.get(f"/api/games/{gid}/view?seat={seat}", headers=_auth(tokens[seat])).json()
            assert_hides(v, seat, seed)
            body = {"seat": seat, "ply": v["ply"], "action": rng.choice(v["legal"])}
            r = client.post(f"/api/games/{gid}/act", json=body, headers=_auth(tokens[seat]))
            assert r.status_code == 200, r.text

    with TestClient(create_app(db, rate=0, socket_rate=0)) as client:
        r = _create(client, LATE, [{"kind": "creator"}, {"kind": "creator"}])
        assert r.status_code == 200, r.text
        gid = r.json()["game"]
        tokens = {x["seat"]: x["token"] for x in r.json()["seats"]}
        seed = Store(db).game(gid)["seed"]  # type: ignore[index]
        half = play(client, gid, tokens, upto=4)
        before = client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(tokens[0])).json()
    assert half["ply"] == 4 and half["status"] == "playing"
    with TestClient(create_app(db, rate=0, socket_rate=0)) as client:  # a restart: rebuilt from the store
        after = client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(tokens[0])).json()
        assert after["view"] == before["view"] and after["from_position"] is True
        end = play(client, gid, tokens, upto=None)
        replay = client.get(f"/api/games/{gid}/replay").json()
    assert end["status"] == "over" and end["result"] is not None
    assert replay["states"][0]["round"] == 9 and replay["states"][-1]["result"] == end["result"]
    # The stored game, replayed by hand from its stored position with its secret seed: the same end.
    store = Store(db)
    g = store.game(gid)
    assert g is not None and g["meta"]["position"]["rolls"] == [3, 3]
    st = first_state(Game(Settings.from_json({**g["settings"], "seed": g["seed"]})), g["meta"])
    for row in store.actions(gid):
        st.apply(row.action, seat=row.seat)
    assert st.result == end["result"] and st.ply == end["ply"]
