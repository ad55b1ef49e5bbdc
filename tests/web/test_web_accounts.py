"""Accounts in the browser (issue 29; docs/players.md) against the real server: sign up in the
lobby, create a rated game against a bot, log in from a second browser and find the game there,
see the ratings move on the leaderboard once the game ends; a quick game filled by a bot."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

PW = "correct horse battery"


def _log_in(page: Page, name: str, sign_up: bool) -> None:
    page.fill("#account-user", name)
    page.fill("#account-password", PW)
    page.click("#sign-up" if sign_up else "#log-in")
    expect(page.locator("#account-name")).to_contain_text(re.compile(name, re.IGNORECASE))


def test_sign_up_play_rated_log_in_elsewhere_and_see_the_leaderboard(
    new_page: Callable[..., Page], real_url: str, shots: Path
) -> None:
    home = new_page()
    home.goto(real_url)
    expect(home.locator("#rated")).to_have_count(0)  # rated games are for accounts
    _log_in(home, "Alice", sign_up=True)
    home.screenshot(path=str(shots / "lobby-account.png"))
    home.check("#rated")
    home.click("#create-game")  # the default table: me against the greedy bot
    expect(home.locator("#game")).to_be_visible()
    gid = home.url.rsplit("/", 1)[1]
    with httpx.Client(base_url=real_url, timeout=30) as c:
        assert c.get(f"api/games/{gid}").json()["rated"] is True
    # From a second browser: the account's game is in "my games".
    away = new_page()
    away.goto(real_url)
    _log_in(away, "alice", sign_up=False)  # the same account, whatever the case
    expect(away.locator("#my-games .game-row")).to_have_count(1)
    expect(away.locator("#my-games .game-row")).to_have_attribute("data-game", gid)
    # There, the game's page plays the account's seat with the session (no seat token was ever here).
    away.click("#my-games .game-row a.open-game")
    expect(away.locator("#game[data-acting='yes']")).to_be_visible(timeout=60_000)
    expect(away.locator("#combos button[data-action], #board .region.offered").first).to_be_visible()
    away.goto(real_url)
    # The game is played out by bots (the account's seat handed to the random bot) and rated.
    csrf = next(c["value"] for c in away.context.cookies() if c["name"] == "sw_csrf")
    r = away.request.post(
        real_url + f"api/games/{gid}/seats/0/bot", data={"level": "random"}, headers={"X-CSRF-Token": csrf}
    )
    assert r.ok, r.text()
    with httpx.Client(base_url=real_url, timeout=30) as c:
        deadline = time.monotonic() + 300
        # This game's rating, not another test's (the server is shared): Alice's row.
        while not any(
            e.get("player", {}).get("name") == "Alice" for e in c.get("api/ratings").json()["players"]
        ):
            assert time.monotonic() < deadline, "the rated game never changed a rating"
            time.sleep(0.3)
    away.goto(real_url + "#/leaderboard")
    rows = away.locator("#leaderboard tbody tr")
    expect(rows.locator("td:nth-child(2)", has_text="Alice")).to_have_count(1)
    by_name = {
        r.locator("td:nth-child(2)").inner_text(): int(r.locator("td:nth-child(3)").inner_text())
        for r in rows.all()
    }
    assert {"Alice", "Greedy bot"} <= set(by_name), by_name  # other tests' players may be there too
    assert by_name["Alice"] != 1000 and by_name["Greedy bot"] != 1000  # both moved
    # Logging out ends this browser's session only.
    away.goto(real_url)
    away.click("#log-out")
    expect(away.locator("#account-form")).to_be_visible()
    home.goto(real_url)
    expect(home.locator("#account-name")).to_contain_text("Alice")


def test_a_quick_game_is_filled_by_a_bot_after_the_wait(page: Page, real_url: str, shots: Path) -> None:
    page.goto(real_url)
    expect(page.locator("#quick")).to_contain_text("Log in")
    _log_in(page, "Quinn", sign_up=True)
    expect(page.locator("#quick-form")).to_be_visible()
    page.select_option("#quick-form select[name=bots]", "30")
    page.screenshot(path=str(shots / "quick-game.png"))
    # Waiting shows the seconds; 30 s later a bot of the nearest rating fills the table.
    page.click("#quick-go")
    expect(page.locator("#quick-status")).to_contain_text("Looking for players near 1000")
    expect(page.locator("#game")).to_be_visible(timeout=60_000)
    gid = page.url.rsplit("/", 1)[1]
    with httpx.Client(base_url=real_url, timeout=30) as c:
        g = c.get(f"api/games/{gid}").json()
    assert g["rated"] is True and sorted(s["kind"] for s in g["seats"]) == ["bot", "human"]
