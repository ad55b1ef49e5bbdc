"""Leaving a game (issue 29, item 5; docs/players.md, Leaving): one missed decision is forgiven, two
in a row hand the seat to the greedy bot and mark it abandoned until its player is back; a player
who leaves a game under way has abandoned it, and in a rated game the bot's results are theirs."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from server.helpers import ON_BOTH_STORES, seat_updates, wait_game

PW = "correct horse battery"


@ON_BOTH_STORES
def test_two_missed_decisions_in_a_row_abandon_the_seat_until_its_player_is_back(client: TestClient) -> None:
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    clock = {"kind": "turn", "deadline_s": 0.2}
    g = client.post("/api/games", json={"players": 2, "seats": seats, "clock": clock}).json()
    gid, tok = g["game"], g["seats"][0]["token"]
    store = client.app.state.service.store  # type: ignore[attr-defined]
    after = wait_game(client, gid, lambda x: x["seats"][0]["away"], "the seat was never marked away")
    stored = store.seats(gid)[0]
    assert stored["misses"] == 2 and stored["abandoned"] is not None
    assert after["seats"][0]["abandoned"] is True
    # The forgiven miss's move was the clock's; so is the one that made the seat away.
    wait_game(client, gid, lambda x: sum(r.by == "clock" for r in store.actions(gid)) >= 2, "one clock move")
    assert all(r.seat == 0 for r in store.actions(gid) if r.by == "clock")
    # The player comes back: neither away nor abandoned, and the misses count from zero again. The
    # seat's clock runs again at once (0.2 s), so on a loaded machine it may miss anew before the
    # test reads: the store's seat updates are recorded, and every miss after the take counts from 1.
    updates = seat_updates(store, 0)
    r = client.post(f"/api/games/{gid}/seats/0/take", headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 200
    back = client.get(f"/api/games/{gid}").json()["seats"][0]
    later = [u for u in updates if "misses" in u]
    assert later[0] == {"bot": None, "away": False, "misses": 0, "abandoned": None}
    assert [u["misses"] for u in later[1:]] == list(range(1, len(later)))
    if len(later) < 3:  # not missed twice again since
        assert back["away"] is False and back["abandoned"] is False


@ON_BOTH_STORES
def test_a_leaver_of_a_rated_game_keeps_its_result_and_is_marked_in_its_record(db_url: str) -> None:
    from smallworld.server.app import create_app

    with TestClient(create_app(db_url, rate=0, socket_rate=0), base_url="http://testserver") as c:
        r = c.post("/api/accounts", json={"name": "Leaver", "password": PW})
        h = {"X-CSRF-Token": r.json()["csrf"]}
        me = r.json()["player"]["id"]
        seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
        gid = c.post("/api/games", json={"players": 2, "seats": seats, "rated": True}, headers=h).json()[
            "game"
        ]
        left = c.post(f"/api/games/{gid}/seats/0/leave", headers=h)
        assert left.status_code == 200 and left.json()["bot"] == "greedy", left.text
        wait_game(c, gid, lambda g: g["status"] == "over")
        deadline = time.monotonic() + 30
        while not (mine := c.get(f"/api/players/{me}/ratings").json())["ratings"]:
            assert time.monotonic() < deadline, "the leaver's game was never rated"
            time.sleep(0.05)
        assert mine["ratings"][0]["games"] == 1
        assert (mine["played"], mine["abandoned"]) == (1, 1)
        # Only the leaver is marked: the bot that stayed has no abandoned game.
        bot = c.get("/api/players/bot:random/ratings").json()
        assert (bot["ratings"][0]["games"], bot["abandoned"]) == (1, 0)
        # The seat left cannot be taken back.
        assert c.post(f"/api/games/{gid}/seats/0/take", headers=h).status_code >= 400
