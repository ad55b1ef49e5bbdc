"""The lobby's lists on the real server (issue 28, item 6): my games with the opponents, the
edition, the date, whose turn ("your turn" stands out) and the result; the games to join a page at a
time; a game in progress to watch, and once it is over, to replay. A game is never labelled by its
id."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from test_web_end import _post
from web_driver import WORDS, create_game, set_lang

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def _create(real_url: str, seats: list[dict[str, Any]], name: str = "Cy") -> dict[str, Any]:
    req = urllib.request.Request(
        f"{real_url}api/games",
        data=json.dumps({"players": len(seats), "name": name, "seats": seats}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=20) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def test_the_lobby_lists_my_games_the_games_to_watch_and_to_replay(
    page: Page, real_url: str, new_page: Any, shots: Path
) -> None:
    # Someone else's games waiting for players: the list shows a page, then the next.
    waiting = [_create(real_url, [{"kind": "creator"}, {"kind": "open"}])["game"] for _ in range(9)]
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")  # the bot has moved: Ada's turn until she moves
    page.goto(real_url)
    row = page.locator(f"#my-games li[data-game='{gid}']")
    row.wait_for()
    text = row.inner_text()
    assert gid not in text  # never the id
    assert "Small World of Warcraft" in text and "vs Greedy bot" in text
    assert row.locator(".your-turn").inner_text() == "Your turn"
    day = time.strftime("%Y", time.gmtime())
    assert "Started " in text and day in row.locator("time").inner_text()
    assert row.locator("a.open-game").get_attribute("href") == f"#/game/{gid}"
    # To watch: the game in progress, with both players named.
    watch = page.locator(f"#watch-games li[data-game='{gid}']")
    assert "Ada, Greedy bot" in watch.inner_text() and "Round 1 of 10 · Ada's turn" in watch.inner_text()
    assert watch.locator("a.watch").get_attribute("href") == f"#/game/{gid}"
    # To join: the newest 8 first, then the rest.
    opened = page.locator("#open-games li.game-row")
    assert opened.count() == 8
    assert [opened.nth(i).get_attribute("data-game") for i in range(8)] == waiting[::-1][:8]
    assert all(g not in page.locator("#open-games").inner_text() for g in waiting)
    page.click("#open-games button.more")
    page.wait_for_function("() => document.querySelectorAll('#open-games li.game-row').length === 9")
    assert page.locator("#open-games button.more").count() == 0
    assert opened.nth(8).get_attribute("data-game") == waiting[0]
    assert "Waiting for players" in opened.nth(0).inner_text() and "Cy" in opened.nth(0).inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    # The game ends (the seat goes to a bot): my game tells the result; it is to replay, not to watch.
    token = page.evaluate("g => JSON.parse(localStorage.getItem('sw.seats.' + g))['0']", gid)
    _post(f"{real_url}api/games/{gid}/seats/0/bot", {"level": "random"}, token)
    deadline = time.monotonic() + 180
    while (summary := _get(f"{real_url}api/games/{gid}"))["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page.reload()
    row.wait_for()
    won = 0 in summary["result"]["winners"]
    assert row.locator(".result strong").inner_text() == ("You won" if won else "You lost")
    top = sorted(summary["result"]["scores"], reverse=True)
    assert f"({top[0]}–{top[1]})" in row.inner_text()
    assert page.locator(f"#watch-games li[data-game='{gid}']").count() == 0
    done = page.locator(f"#finished-games li[data-game='{gid}']")
    winner = "Ada" if won else "Greedy bot"
    assert f"Won by {winner}" in done.inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "lobby-finished.png"), full_page=True)
    # In Portuguese, the same lists in the reader's words.
    page.select_option("#lang", "pt")
    assert page.locator("#finished-games h2").inner_text() == "Partidas terminadas"
    assert row.locator(".result strong").inner_text() == ("Você venceu" if won else "Você perdeu")
    page.select_option("#lang", "en")
    done.locator("a.replay").click()
    page.wait_for_selector("#replay[data-ply='0']")
    # A phone held upright: the lists in one column.
    phone = new_page(390, 844)
    phone.goto(real_url)
    phone.wait_for_selector(f"#finished-games li[data-game='{gid}']")
    phone.screenshot(path=str(shots / "lobby-phone.png"))
    phone.locator("#watch-games").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "lobby-phone-lists.png"))


def test_a_language_switched_in_the_lobby_redraws_the_account_and_quick_game_boxes(
    page: Page, real_url: str
) -> None:
    """Every word in the reader's language (issue 28's one voice): the account box and the quick game
    box are kept across the lobby's redraws, and a language switched draws them again in its words,
    keeping what was typed and chosen."""
    page.goto(real_url)
    page.wait_for_selector("#lobby #account-form")
    page.fill("#account-user", "Ingrid")
    set_lang(page, "de")
    de = WORDS["de"]
    assert page.locator("#account-title").inner_text() == de["account.title"]
    assert page.locator("label[for=account-user]").inner_text() == de["account.name"]
    assert page.locator("#log-in").inner_text() == de["account.log_in"]
    assert page.locator("#account-user").input_value() == "Ingrid"  # what was typed stays
    assert page.locator("#quick-title").inner_text() == de["players.quick"]
    assert de["players.quick_login"] in page.locator("#quick").inner_text()
    # Logged in, the quick game's choices stay through a switch.
    account = {"name": "Ingrid", "password": "correct horse battery"}
    r = page.request.post(real_url + "api/accounts", data=account)
    assert r.ok, r.text()
    page.goto(real_url)
    page.wait_for_selector("#lobby #quick-form")
    page.select_option("#quick-form select[name=players]", "4")
    set_lang(page, "pt")
    pt = WORDS["pt"]
    assert page.locator("#quick-title").inner_text() == pt["players.quick"]
    assert page.locator("#quick-go").inner_text() == pt["players.find"]
    assert page.locator("#quick-form select[name=players]").input_value() == "4"
    assert page.locator("#account-title").inner_text() == pt["account.title"]
    set_lang(page, "en")


def test_the_connections_state_is_said_again_in_a_language_switched_to(page: Page, real_url: str) -> None:
    """The header's word for the game's connection ("Online") was set when the state changed only,
    so a language switched left it in the one before."""
    create_game(page, real_url, "Ines", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']")
    set_lang(page, "de")
    assert page.locator("#conn").inner_text() == WORDS["de"]["live.online"]
    set_lang(page, "en")
    assert page.locator("#conn").inner_text() == WORDS["en"]["live.online"]
