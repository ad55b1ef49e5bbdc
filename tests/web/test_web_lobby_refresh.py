"""The lobby's lists refresh by themselves (issue 28, item 6; docs/web.md "The lobby"), in Chromium
against the real server: a game another browser creates appears in the open games while the lobby
is open, without a reload; the round and whose turn it is move on in "my games"; what is being typed in the
form stays, focus and all; and a hidden tab asks nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page
from web_driver import create_game, step

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

# The lists refresh every 400 ms here (every 15 s in use: lobby.js REFRESH_MS).
FAST = "window.__swLobbyPoll = 400;"


def test_a_game_another_browser_creates_appears_without_a_reload(
    page: Page, real_url: str, new_page: Callable[..., Page]
) -> None:
    page.add_init_script(FAST)
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    # Someone is typing a name in the form meanwhile.
    page.fill("#name", "Halfway typed")
    page.focus("#name")
    other = new_page()
    gid = create_game(other, real_url, "Quillon", ["me", "open"])
    row = page.locator(f"#open-games li[data-game='{gid}']")
    row.wait_for(timeout=10000)
    assert "Quillon" in row.inner_text() and row.locator("button.join-open").count() == 1
    # The form was not drawn again: the text typed and the focus stay.
    assert page.input_value("#name") == "Halfway typed"
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == "name"
    # Once the game starts (the open seat taken), it leaves the open games for the games to watch.
    other2 = new_page()
    other2.goto(real_url)
    other2.wait_for_selector(f"#open-games li[data-game='{gid}'] button.join-open")
    other2.fill("#name", "Rurik")
    other2.click(f"#open-games li[data-game='{gid}'] button.join-open")
    other2.wait_for_selector("#game")
    page.locator(f"#watch-games li[data-game='{gid}']").wait_for(timeout=10000)
    assert page.locator(f"#open-games li[data-game='{gid}']").count() == 0
    assert "Quillon" in page.locator(f"#watch-games li[data-game='{gid}']").inner_text()


def test_my_games_follow_the_game(page: Page, real_url: str) -> None:
    page.add_init_script(FAST)
    gid = create_game(page, real_url, "Tamsin", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    page.goto(real_url)
    mine = page.locator(f"#my-games li[data-game='{gid}']")
    mine.locator(".your-turn").wait_for()
    first = mine.locator(".round").inner_text()
    assert first.startswith("Round 1 of")
    # The game goes on in another tab of this browser (its seat plays; the bot answers): the round
    # in the lobby's row moves on, without a reload.
    game = page.context.new_page()
    game.goto(f"{real_url}#/game/{gid}")
    for _ in range(80):
        if mine.locator(".round").inner_text() != first:
            break
        game.wait_for_selector("#game[data-acting='yes']")
        step(game)
        page.wait_for_timeout(100)
    game.close()
    page.wait_for_function(
        "([g, r]) => document.querySelector(`#my-games li[data-game='${g}'] .round`).textContent !== r",
        arg=[gid, first],
    )


def test_a_hidden_tab_asks_nothing(page: Page, real_url: str) -> None:
    page.add_init_script(FAST)
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.wait_for_timeout(1000)
    assert any("/api/games?status=open" in u for u in asked), "it refreshes while seen"
    # The tab is hidden: no list is asked for; seen again, they are asked for at once.
    page.evaluate(
        """() => { Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
                   document.dispatchEvent(new Event("visibilitychange")); }"""
    )
    page.wait_for_timeout(300)
    asked.clear()
    page.wait_for_timeout(1500)
    assert asked == []
    page.evaluate(
        """() => { Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
                   document.dispatchEvent(new Event("visibilitychange")); }"""
    )
    page.wait_for_timeout(300)
    assert any("/api/games?status=open" in u for u in asked)
