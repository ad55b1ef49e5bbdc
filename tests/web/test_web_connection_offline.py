"""The server out of reach (issue 28, item 8; docs/web.md "One socket, an honest connection"), in
Chromium against the real server: a page loaded, a screen opened or a decision made while the
server cannot be reached says so in the catalogue's words (never the browser's "Failed to fetch"),
with the connection's state and "Try again"; the page tries again by itself, and the message goes
once the server answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route
from web_driver import create_game

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

WORDS = json.loads((Path(__file__).resolve().parents[2] / "smallworld/web/words.json").read_text("utf-8"))
# The page tries again every 500 ms here (every 5 s in use: connection.js RETRY_MS); the "Try
# again" test waits 60 s, so that only the button can bring the page back.
FAST = "window.__swRetryMs = 500;"
SLOW = "window.__swRetryMs = 60000;"


def _abort(route: Route) -> None:
    route.abort("connectionrefused")


def _said(page: Page, lang: str = "en") -> None:
    """The banner says the server is out of reach, in `lang`, with its button; nothing says
    "Failed to fetch"."""
    banner = page.locator("#offline")
    banner.wait_for()
    assert banner.get_attribute("role") == "alert"
    assert page.locator("#offline .offline-text").inner_text() == WORDS[lang]["conn.unreachable"]
    assert page.locator("#offline-retry").inner_text() == WORDS[lang]["conn.retry"]
    assert "Failed to fetch" not in page.locator("body").inner_text()


def test_a_page_loaded_while_the_server_is_out_of_reach_says_so_and_comes_back(
    browser: Browser, real_url: str, shots: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(20000)
    ctx.add_init_script(SLOW)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(real_url)  # a first visit: the page keeps its words
    page.wait_for_selector("#lobby")
    page.select_option("#lang", "de")
    # The server's API stops answering (the page's own files still come).
    page.route("**/api/**", _abort)
    page.reload()
    _said(page, "de")
    assert page.locator("#unreachable").inner_text() == WORDS["de"]["conn.unreachable"]
    assert page.locator("#conn").get_attribute("data-status") == "offline"
    assert page.locator("#conn").inner_text() == WORDS["de"]["live.offline"]
    page.screenshot(path=str(shots / "offline.png"))
    # "Try again" while it is still out of reach: still said, nothing else.
    page.click("#offline-retry")
    page.wait_for_timeout(300)
    _said(page, "de")
    # Back: "Try again" loads the lobby, and the message and the state go.
    page.unroute("**/api/**", _abort)
    page.click("#offline-retry")
    page.wait_for_selector("#lobby")
    page.wait_for_selector("#offline", state="hidden")
    assert page.locator("#unreachable").count() == 0
    assert page.locator("#conn").get_attribute("data-status") is None
    assert page.locator("#conn").inner_text() == ""
    page.select_option("#lang", "en")
    ctx.close()
    assert not errors, errors


def test_a_game_opened_or_a_game_created_offline_is_said_in_words_and_clears(
    browser: Browser, real_url: str
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(20000)
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    gid = create_game(page, real_url, "Odile", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    page.goto(f"{real_url}#/")
    page.wait_for_selector("#lobby")
    # Offline: the lobby's "Create game" says so in words (no alert with the browser's words).
    ctx.set_offline(True)
    page.fill("#name", "Odile")
    page.click("#create-game")
    _said(page)
    assert dialogs == []
    assert page.locator("#lobby").count() == 1, "the lobby stays, with what was typed"
    assert page.input_value("#name") == "Odile"
    # Opening the game while offline: said in words, the lobby's "offline" state shown.
    page.evaluate("g => { location.hash = `#/game/${g}`; }", gid)
    page.wait_for_selector("#app .error")
    _said(page)
    assert page.locator("#app .error").inner_text() == WORDS["en"]["conn.unreachable"]
    # Back online: the page tries again by itself, the game comes and the message goes.
    ctx.set_offline(False)
    page.wait_for_selector("#game[data-acting='yes']")
    page.wait_for_selector("#offline", state="hidden")
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    assert "Failed to fetch" not in page.locator("body").inner_text()
    ctx.close()
    assert not errors, errors
