"""Issue 28, item 2: one name per player everywhere on the page. A 3-player game on the real server
against two bots of one level, through the page: the log, the decisions, the scoring, the
players, the clock, the end screen and the replay name the player by her name and each bot by its
level in the reader's language, told apart by seat number counted from 1; never a "Seat 0"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page
from web_driver import create_game, my_turn, play_until, step
from web_positions import L2A, open_position, orcs_against

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

# A seat named by number (the catalogues' "Seat 1", "Jogador 1", "Spieler 1", the lobby's "Lugar 1",
# "Platz 1"), or a mark of the server's left unwritten (a card's "dem Pandaren-Spieler 2 Münzen" is
# no seat).
SEAT_WORDS = re.compile(r"(?<![\w-])(Seat|Jogador|Lugar|Spieler|Platz) \d|⟦|⟧")
BOTS = {"en": "Greedy bot", "pt": "Robô guloso", "de": "Gieriger Bot"}
YOU = {"en": "You", "pt": "Você", "de": "Du"}


def _lang(page: Page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def _no_seat_numbers(page: Page, where: str) -> str:
    # text_content: closed <details> too (the list of every decision).
    text = page.locator(where).text_content() or ""
    m = SEAT_WORDS.search(text)
    assert not m, text[max(0, m.start() - 80) : m.end() + 80]
    return text


def _names(page: Page, where: str) -> dict[str, str]:
    """Each named seat under `where` (its colour dot's `data-seat`) and the words shown."""
    found: dict[str, str] = {}
    who = page.locator(f"{where} .who")
    for i in range(who.count()):
        found[who.nth(i).get_attribute("data-seat") or ""] = who.nth(i).inner_text()
    return found


def _check_game_page(page: Page, lang: str) -> None:
    bot = BOTS[lang]
    _no_seat_numbers(page, "aside.side")
    players = page.locator("#players li.player")
    shown = {p.get_attribute("data-seat"): p.locator(":scope > strong").inner_text() for p in players.all()}
    assert shown["0"].startswith("Ada (") and shown["1"] == f"{bot} 2" and shown["2"] == f"{bot} 3"
    # The log: each bot by its name, the player as "You", each with its seat's colour dot.
    log = _names(page, "#log")
    assert log.get("1") == f"{bot} 2" and log.get("2") == f"{bot} 3" and log["0"].lower() == YOU[lang].lower()
    assert f"{bot} 3 " in (page.locator("#log").inner_text())
    dot = page.locator("#log .who[data-seat='1'] .seat-dot").first
    assert dot.get_attribute("data-n") == "2" and "rgb(86, 180, 233)" in (dot.get_attribute("style") or "")
    # The scoring of each seat's last turn.
    scoring = _names(page, "#scoring")
    assert scoring == {"0": YOU[lang], "1": f"{bot} 2", "2": f"{bot} 3"}


def test_every_player_is_named_by_name_and_bot_level_everywhere(page: Page, real_url: str) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "bot", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    # The clock at the top says whose it is.
    assert page.locator(".turn-clock .who").inner_text() == "Ada (you)"
    _no_seat_numbers(page, "aside.side")
    decisions = 0
    named_button = ""  # a decision that names another player (a conquest from a bot)
    while page.locator("#scoring li").count() < 3 or not named_button or decisions < 8:
        assert decisions < 200 and not page.locator("#end-screen").count()
        if not my_turn(page):
            page.wait_for_function("() => document.querySelector('#game')?.dataset.acting === 'yes'")
            continue
        _no_seat_numbers(page, "aside.side")
        buttons = page.locator("#all-actions button[data-action]:has(.who:not([data-seat='0']))")
        if buttons.count():
            named_button = buttons.first.text_content() or ""
        step(page)
        decisions += 1
    assert re.search(r"\bGreedy bot [23]\b", named_button), named_button
    _check_game_page(page, "en")
    page.mouse.move(0, 0)
    page.screenshot(path="/tmp/names-game.png")
    page.locator("#scoring").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/names-game-log.png")  # the players, the scoring and the log
    for lang in ("pt", "de"):
        _lang(page, lang)
        _check_game_page(page, lang)
    page.locator("#scoring").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/names-game-log-de.png")
    _lang(page, "en")

    # To the end screen.
    play_until(page, lambda: page.locator("#end-screen").count() > 0)
    end = _names(page, "#end-screen table")
    assert end == {"0": "Ada (you)", "1": "Greedy bot 2", "2": "Greedy bot 3"}
    winners = _names(page, "#winners")
    assert winners and set(winners.values()) <= set(end.values())
    _no_seat_numbers(page, "#end-screen")
    _no_seat_numbers(page, "aside.side")
    page.mouse.move(0, 0)
    page.screenshot(path="/tmp/names-end.png")
    _lang(page, "pt")
    pt = {"0": "Ada (você)", "1": "Robô guloso 2", "2": "Robô guloso 3"}
    assert _names(page, "#end-screen table") == pt
    _no_seat_numbers(page, "aside.side")
    _lang(page, "en")

    # The replay: the moves in words, each player by name (a spectator's words: nobody is "you").
    page.click("#open-replay")
    page.wait_for_selector("#replay")
    seen: dict[str, str] = {}
    for p in range(1, 40):
        page.locator("#replay-slider").fill(str(p))
        page.locator("#replay-slider").dispatch_event("change")
        page.wait_for_selector(f"#replay[data-ply='{p}']")
        _no_seat_numbers(page, "#replay aside")
        seen.update(_names(page, "#replay .log"))
        if len(seen) == 3:
            break
    assert seen == {"0": "Ada", "1": "Greedy bot 2", "2": "Greedy bot 3"}
    page.screenshot(path="/tmp/names-replay.png")
    _lang(page, "de")
    assert set(_names(page, "#replay .log").values()) <= {"Ada", "Gieriger Bot 2", "Gieriger Bot 3"}
    _no_seat_numbers(page, "#replay aside")
    _lang(page, "en")
    assert gid


def test_a_conquest_names_the_player_it_pays(page: Page, real_url: str) -> None:
    """§8.13: a Harmony holder pays the Pandaren player 2 coins before attacking them. The region's
    holder, its conquest cost's dues (the engine's `explain`, once sent as JSON with a seat number)
    and the decision name the bot that is paid."""
    open_position(page, real_url, L2A, orcs_against("pandaren", 1, ext={"pandaren": {"holders": [0]}}))
    page.click("#board [data-region='L2a:3']")
    info = page.locator("#region-info[data-region='L2a:3']")
    text = info.inner_text()
    assert "Held by: Pandaren ×1 (Greedy bot)" in text
    assert "to pay: 2 coins to Greedy bot (Pandaren)" in text
    button = info.locator("button[data-action]").first
    assert "from Greedy bot (Pandaren)" in button.inner_text()
    assert button.locator(".who[data-seat='1']").count() == 1
    _no_seat_numbers(page, "aside.side")
    # The reader's own region: "(you)", not the name with "(you)" in brackets again.
    page.click("#board [data-region='L2a:12']")
    assert "Held by: Orcs ×1 (you)\n" in page.locator("#region-info[data-region='L2a:12']").inner_text()
    page.click("#board [data-region='L2a:3']")
    _lang(page, "pt")
    assert "2 moedas para Robô guloso (Pandarens)" in info.inner_text()
    _no_seat_numbers(page, "aside.side")
    _lang(page, "en")
