"""A player's profile and resigning, in the browser against the real server (issue 29, items 5 and 6;
docs/players.md, "Leaving" and "Profiles"): a logged-in player resigns a 2-player game against a bot
through the game screen's confirm step; a bot plays the seat until the game ends, the seat cannot
be taken back, and the profile counts one abandoned game, lists the races and powers played (in
the reader's words, with their win rates) and the player's games with a "More" button. The lobby
of a logged-in browser asks no name (the account's is used); a logged-out one still does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import APIRequestContext, Page, expect
from web_driver import poll

PW = "correct horse battery"
AXE = Axe()


def _serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    found = AXE.run(page).response["violations"]
    return [f"{v['impact']} {v['id']}" for v in found if v["impact"] in ("serious", "critical")]


def _wait(req: APIRequestContext, url: str, done: Any, what: str) -> dict[str, Any]:
    return poll(lambda: req.get(url).json(), done, what)


def test_a_resign_hands_the_seat_to_a_bot_and_the_profile_counts_it(
    page: Page, real_url: str, shots: Path
) -> None:
    r = page.request.post(real_url + "api/accounts", data={"name": "Quitterson", "password": PW})
    assert r.ok, r.text()
    me = r.json()["player"]["id"]
    h = {"X-CSRF-Token": r.json()["csrf"]}
    # Logged in, the lobby's form asks no name: the account's is used.
    page.goto(real_url)
    expect(page.locator("#account-name")).to_contain_text("Quitterson")
    expect(page.locator("#create-game")).to_be_visible()
    expect(page.locator("#create #name")).to_have_count(0)
    page.select_option("select[name=level-1]", "random")
    page.click("#create-game")
    page.wait_for_url("**/#/game/*")
    gid = page.url.rsplit("/", 1)[1]
    expect(page.locator("#players li[data-seat='0'] strong")).to_contain_text("Quitterson")
    # The game's players panel is as wide as the side column's other panels (the players' pages'
    # column once narrowed it: it is a "panel players" too).
    players, status = page.locator("#players").bounding_box(), page.locator("#status").bounding_box()
    assert players and status and (players["x"], players["width"]) == (status["x"], status["width"])
    # Resigning asks first; "keep playing" leaves the seat as it was.
    page.click("#resign-button")
    expect(page.locator("#resign-ask")).to_contain_text("cannot take it back")
    page.screenshot(path=str(shots / "resign.png"))
    assert _serious(page) == []
    page.click("#resign-no")
    expect(page.locator("#resign-ask")).to_have_count(0)
    assert page.request.get(real_url + f"api/games/{gid}").json()["seats"][0]["kind"] == "human"
    page.click("#resign-button")
    page.click("#resign-yes")
    # The page now watches the game: it says a bot plays the seat, and offers no resign any more.
    # (The screen starts again as a spectator's: its socket's first answer may take a few seconds.)
    resigned = "You resigned: a bot plays your seat to the end."
    expect(page.locator("#resigned")).to_have_text(resigned, timeout=30_000)
    expect(page.locator("#resign-button")).to_have_count(0)
    expect(page.locator("#game")).to_have_attribute("data-viewer", "")
    # The game goes on without its player and ends: the greedy bot played the seat.
    over = _wait(
        page.request, real_url + f"api/games/{gid}", lambda g: g["status"] == "over", "the game stalled"
    )
    assert over["seats"][0]["kind"] == "bot" and over["seats"][0]["bot"] == "greedy"
    assert over["seats"][0]["abandoned"] is True and over["result"] is not None
    # The resigner cannot take the seat back.
    back = page.request.post(real_url + f"api/games/{gid}/seats/0/take", headers=h)
    assert back.status in (401, 403) and back.json()["code"] == "bad_token", back.text()
    # More games, to page through: games waiting for an invited player.
    for _ in range(10):
        made = page.request.post(
            real_url + "api/games",
            data={"players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}]},
            headers=h,
        )
        assert made.ok, made.text()
    # The profile, from the account box.
    page.goto(real_url)
    page.click("#my-profile")
    expect(page.locator("#profile h1")).to_have_text("Quitterson")
    expect(page.locator("#record")).to_have_text("Abandoned 1 of 1 game (100%)")
    # The races and powers the seat held, named in the reader's words, with the game's result.
    stats = page.request.get(real_url + f"api/players/{me}/stats").json()
    words = page.request.get(real_url + "api/words?edition=warcraft").json()
    [ed] = stats["editions"]
    won = over["result"]["winners"] == [0]
    for kind in ("races", "powers"):
        assert ed[kind], stats
        table = page.locator(f"#units table.units:nth-of-type({1 if kind == 'races' else 2})")
        for u in ed[kind]:
            row = page.locator(f"#units tr[data-unit='{u['unit']}']")
            expect(row.locator("td").nth(0)).to_have_text(words[u["unit"]]["en"]["name"])
            expect(row.locator("td").nth(3)).to_have_text("100%" if won else "0%")
        expect(table.locator("tbody tr")).to_have_count(len(ed[kind]))
    # The games: the first page of 10, newest first, then "More" brings the resigned one.
    games = page.locator("#profile-games li.game-row")
    expect(games).to_have_count(10)
    expect(games.first).to_contain_text("Waiting")
    page.click("#profile-games .more")
    expect(games).to_have_count(11)
    expect(page.locator("#profile-games .more")).to_have_count(0)
    last = games.last
    expect(last).to_have_attribute("data-game", gid)
    expect(last).to_contain_text("left (a bot played on)")
    expect(last).to_contain_text("won" if won else "lost")
    expect(last.locator("a.replay")).to_have_attribute("href", f"#/replay/{gid}")
    page.screenshot(path=str(shots / "profile-stats.png"), full_page=True)
    assert _serious(page) == []
    # The page speaks the reader's language.
    page.select_option("#lang", "de")
    expect(page.locator("#record")).to_have_text("1 von 1 Partie abgebrochen (100 %)")
    expect(page.locator("#units th").first).to_have_text("Volk")
    u = ed["races"][0]["unit"]
    expect(page.locator(f"#units tr[data-unit='{u}'] td").first).to_have_text(words[u]["de"]["name"])


def test_a_logged_out_lobby_still_asks_the_players_name(page: Page, real_url: str) -> None:
    page.goto(real_url)
    expect(page.locator("#account-form")).to_be_visible()
    expect(page.locator("#create #name")).to_be_visible()


def test_a_bots_profile_lists_what_it_played(page: Page, real_url: str) -> None:
    # A game of the random bot's, played to its end by the server (the creator hands the seat over).
    r = page.request.post(real_url + "api/players", data={"name": "Botwatcher"})
    tok = r.json()["player_token"]
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    made = page.request.post(
        real_url + "api/games",
        data={"players": 2, "seats": seats},
        headers={"Authorization": f"Bearer {tok}"},
    ).json()
    gid = made["game"]
    seat_token = made["seats"][0]["token"]
    page.request.post(
        real_url + f"api/games/{gid}/seats/0/leave", headers={"Authorization": f"Bearer {seat_token}"}
    )
    _wait(page.request, real_url + f"api/games/{gid}", lambda g: g["status"] == "over", "the game stalled")
    page.goto(real_url + "#/player/bot:random")
    expect(page.locator("#profile h1")).to_have_text("Random bot")
    expect(page.locator("#units .edition-units[data-edition='warcraft'] tr[data-unit]").first).to_be_visible()
    # Its games, newest first (other tests' games of the random bot may be there too).
    expect(page.locator(f"#profile-games li.game-row[data-game='{gid}'] a.replay")).to_have_attribute(
        "href", f"#/replay/{gid}"
    )
