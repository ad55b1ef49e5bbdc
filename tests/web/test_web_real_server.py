"""The web client against the real game server (`smallworld serve`: SQLite store, bot workers,
WebSocket), as `make play` runs it: the whole game through the page, and a classic-edition game."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from web_driver import create_game, phase, play_until, ply, record_actions, step

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def test_whole_game_against_a_bot_on_the_real_server(page: Page, real_url: str, shots: Path) -> None:
    """Issue 13: a whole 2-player game against a bot through the page alone, to the end screen."""
    started = time.monotonic()
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    # Updates come over the server's WebSocket, not by polling.
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "board-start.png"))
    # Turn by turn (the lobby's default pace): the seat on turn has a day for its decision.
    page.wait_for_selector("#game[data-acting='yes'] #turn-clock")
    # (with the time it is due: a weekday and an hour, 24 h from now)
    due = r"◷ 2[34] h \d+ min left · due \w+ \d\d:\d\d( [AP]M)?"
    assert re.fullmatch(due, page.locator("#turn-clock").inner_text())
    assert (page.locator("#turn-clock").get_attribute("title") or "").startswith("due ")
    kinds = play_until(page, lambda: page.locator("#redeploy").count() > 0)
    # Redeployment: + and - per region, undo, then one plan for the whole of it.
    left = int(page.locator("#plan-left").get_attribute("data-left") or 0)
    first = page.locator("#redeploy li[data-plan-region]").first
    # Every region starts at what must stay on it ("−" disabled: test_web_redeploy.py): "+" first.
    if left > 0:
        first.locator(".plan-tokens button.plus").click()
        assert int(page.locator("#plan-left").get_attribute("data-left") or 0) == left - 1
        first.locator(".plan-tokens button.minus").click()
        assert int(page.locator("#plan-left").get_attribute("data-left") or 0) == left
        page.click("#plan-undo")
        assert int(page.locator("#plan-left").get_attribute("data-left") or 0) == left - 1
        page.click("#plan-undo")
        assert int(page.locator("#plan-left").get_attribute("data-left") or 0) == left
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "redeployment.png"))
    sent = record_actions(page)  # over the socket (or HTTP where it is down)
    kinds.append(step(page))
    assert kinds[-1] == "plan" and sent() and sent()[0]["action"]["kind"] == "plan"
    kinds += play_until(page, lambda: int(page.locator("#game").get_attribute("data-ply") or 0) > 40)
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "mid-game.png"))
    kinds += play_until(page, lambda: page.locator("#end-screen").count() > 0)
    summary = _get(f"{real_url}api/games/{gid}")
    assert summary["status"] == "over" and summary["result"] is not None
    for seat, score in enumerate(summary["result"]["scores"]):
        assert page.locator(f"#end-screen tr[data-seat='{seat}'] td.score").inner_text() == str(score)
    assert phase(page) == "over"
    assert page.locator("#log li").count() > 20  # the game log, in words
    assert page.locator("#conn").get_attribute("data-status") == "online"  # the socket held all game
    elapsed = time.monotonic() - started
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "end-screen.png"))
    (shots / "timing.txt").write_text(
        f"whole 2-player game through the page on smallworld serve: {elapsed:.1f} s, {len(kinds)} decisions\n"
    )
    # The lobby now lists the game under "my games", from the server's store.
    page.goto(real_url)
    page.wait_for_selector(f"#my-games [data-game='{gid}']")
    page.screenshot(path=str(shots / "lobby-after-game.png"))
    page.goto(f"{real_url}#/game/{gid}")
    page.wait_for_selector("#end-screen")
    # The replay: stepped with buttons and a slider.
    page.click("#open-replay")
    page.wait_for_selector("#replay")
    assert page.locator("#replay").get_attribute("data-ply") == "0"
    page.click("#replay-next")
    page.wait_for_selector("#replay[data-ply='1']")
    page.click("#replay-last")
    page.wait_for_selector(f"#replay[data-ply='{summary['ply']}']")
    page.locator("#replay-slider").fill("5")
    page.locator("#replay-slider").dispatch_event("change")
    page.wait_for_selector("#replay[data-ply='5']")


def test_classic_edition_game_starts_and_shows_its_board(page: Page, real_url: str, shots: Path) -> None:
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    page.select_option("#edition", "classic")
    # Classic has no team variant: the form offers only what the edition has.
    variants = page.locator("#variant option")
    assert [variants.nth(i).get_attribute("value") for i in range(variants.count())] == ["standard"]
    gid = create_game(page, real_url, "Ada", ["me", "bot"], edition="classic")
    assert _get(f"{real_url}api/games/{gid}")["settings"]["edition"] == "classic"
    board = _get(f"{real_url}api/games/{gid}/board")
    refs = [r["ref"] for side in board["sides"] for r in side["regions"]]
    assert [s["id"] for s in board["sides"]] == ["C2"] and len(refs) == 23
    # Every region of the classic map is drawn, each with its terrain's pattern.
    page.wait_for_selector("#game[data-phase]")
    assert page.locator("#board [data-region]").count() == len(refs)
    farmland = next(r["ref"] for s in board["sides"] for r in s["regions"] if r["terrain"] == "Farmland")
    fill = page.locator(f"#board [data-region='{farmland}'] polygon").get_attribute("fill")
    assert fill == "url(#t-Farmland)" and page.locator("#t-Farmland").count() == 1
    # The classic catalogues name the classic races and powers (not Warcraft's) in the offer.
    page.wait_for_selector("#game[data-acting='yes']")
    offer = page.locator("#combos").inner_text()
    words = _get(f"{real_url}api/words?edition=classic")
    row = page.evaluate("() => window.__sw.shown().st.view.row")
    assert row
    for combo in row:
        for unit in (combo["race"], combo["power"]):
            assert words[unit]["en"]["name"] in offer
        assert f"{combo['race']}.name" not in offer
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "classic-board.png"))
    # A pick goes through on the real server and the board shows the classic game moving on.
    before = int(page.locator("#game").get_attribute("data-ply") or 0)
    page.locator("#combos button[data-action]").first.click()
    page.wait_for_function("b => +document.querySelector('#game').dataset.ply > b", arg=before)


def _seconds(clock: str) -> int:
    """'◷ 9:58 left' -> 598."""
    m = re.search(r"(\d+):(\d\d)", clock)
    assert m, clock
    return int(m[1]) * 60 + int(m[2])


def test_the_clock_of_the_seat_on_turn_counts_down_between_updates(page: Page, real_url: str) -> None:
    """A live game (10 minutes a seat): the bank of the seat on turn runs down in the page with no
    word from the server; the bot's seat has no clock."""
    gid = create_game(page, real_url, "Ada", ["me", "bot"], clock="live")
    summary = _get(f"{real_url}api/games/{gid}")
    assert summary["clock"]["kind"] == "live" and summary["seats"][0]["bank_ms"] == 600_000
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-acting='yes'] #turn-clock")
    # From now on nothing reaches the page: its socket is closed for good and no request leaves.
    page.evaluate("() => window.__sw.lives.forEach((l) => l.close())")
    asked: list[str] = []
    page.on("request", lambda r: "/api/" in r.url and asked.append(r.url))
    before = ply(page)
    mine = page.locator("#players li[data-seat='0'] .clock-left")
    left, text = int(mine.get_attribute("data-left-ms") or 0), mine.inner_text()
    assert 570_000 < left <= 600_000 and text.endswith(" left"), (left, text)
    # The page alone runs the clock down: wait until it shows two seconds gone, in both forms.
    page.wait_for_function(
        """([left, secs]) => {
            const el = document.querySelector("#players li[data-seat='0'] .clock-left");
            const m = el && /(\\d+):(\\d\\d)/.exec(el.innerText);
            if (m == null) return false;
            return Number(el.dataset.leftMs) <= left - 2000 && m[1] * 60 + Number(m[2]) <= secs - 2;
        }""",
        arg=[left, _seconds(text)],
    )
    later, text_later = int(mine.get_attribute("data-left-ms") or 0), mine.inner_text()
    assert left - later >= 2000, (left, later)
    assert _seconds(text_later) <= _seconds(text) - 2, (text, text_later)
    assert page.locator("#turn-clock").inner_text() == text_later  # the same clock at the top
    assert ply(page) == before and asked == []
    assert page.locator("#players li[data-seat='1'] .clock-left").count() == 0
