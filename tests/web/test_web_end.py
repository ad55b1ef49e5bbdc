"""The end screen and the replay on the real server (issue 28, item 7): a game against a bot played
to its end, then the verdict for the reader, the chart of coins by round (one line per player,
named in a legend), the breakdown of every seat's coins (adding up to its final coins, §7), the
replay with its players, coins, round and the move in words; and "notify me" only for a player of
a game still going on."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from web_driver import create_game

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def _post(url: str, body: dict[str, Any], token: str) -> Any:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def settle(page: Page) -> None:
    """Until the page has not been redrawn for a second: the moves of the bots' quick game arrive
    in a burst (each a redraw), and the end screen is drawn again until the last has come."""
    page.evaluate(
        """() => new Promise((ok) => {
          let t = null;
          const o = new MutationObserver(() => { clearTimeout(t); t = setTimeout(done, 1000); });
          function done() { o.disconnect(); ok(true); }
          o.observe(document.getElementById('app'), { childList: true });
          t = setTimeout(done, 1000);
        })"""
    )


def finish_against_a_bot(page: Page, real_url: str, name: str = "Ada") -> tuple[str, dict[str, Any]]:
    """A 2-player game against a greedy bot, made in the lobby; this page's seat then goes to a
    random bot (the seat's own `POST .../seats/0/bot`), which plays it to the end as quickly as the
    bots play. The page stays on the game and holds seat 0 all along. Returns the id and summary."""
    gid = create_game(page, real_url, name, ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    token = page.evaluate("g => JSON.parse(localStorage.getItem('sw.seats.' + g))['0']", gid)
    _post(f"{real_url}api/games/{gid}/seats/0/bot", {"level": "random"}, token)
    page.wait_for_selector("#end-screen", timeout=180000)
    settle(page)
    return gid, _get(f"{real_url}api/games/{gid}")


def test_the_end_screen_says_won_or_lost_and_charts_each_players_coins_by_round(
    page: Page, real_url: str, new_page: Any, shots: Path
) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    assert page.locator("#notify").count() == 1  # a player of a game going on may be notified
    watcher = new_page()
    watcher.goto(f"{real_url}#/game/{gid}")
    watcher.wait_for_selector("#game")
    assert watcher.locator("#notify").count() == 0  # a spectator is never asked
    page.bring_to_front()  # (a page in the background paints seldom)
    token = page.evaluate("g => JSON.parse(localStorage.getItem('sw.seats.' + g))['0']", gid)
    _post(f"{real_url}api/games/{gid}/seats/0/bot", {"level": "random"}, token)
    page.wait_for_selector("#end-screen", timeout=180000)
    summary = _get(f"{real_url}api/games/{gid}")
    result = summary["result"]
    scores = _get(f"{real_url}api/games/{gid}/scores")
    # The verdict for the reader (seat 0), from the engine's winners (§7).
    won = 0 in result["winners"]
    expect = ("You share the victory" if len(result["winners"]) > 1 else "You won!") if won else "You lost"
    page.wait_for_selector("#score-chart svg", state="attached")
    settle(page)
    assert page.locator("#verdict").inner_text() == expect
    assert page.locator("#verdict").get_attribute("data-won") == ("yes" if won else "no")
    assert page.locator("#notify").count() == 0  # nothing to be notified of after the end
    # The final coins, revealed.
    for seat, coins in enumerate(result["scores"]):
        assert page.locator(f"#end-screen tr[data-seat='{seat}'] td.score").inner_text() == str(coins)
    # The chart: one line per player, a point per round and the start, named in the legend.
    lines = page.locator("#score-chart .series polyline")
    assert lines.count() == 2
    for i in range(2):
        points = (lines.nth(i).get_attribute("points") or "").split()
        assert len(points) == len(scores["rounds"]) > 2
    assert page.locator("#score-chart .axis-title").all_text_contents() == ["Round", "Coins"]
    legend = page.locator("#score-chart .chart-legend li").all_inner_texts()
    assert sorted(t.strip() for t in legend) == ["Ada", "Greedy bot"]
    assert "0123456789abcdef" not in page.locator("#end-screen").inner_text()
    # The breakdown: a column per player, its items adding up to the final coins.
    for seat, coins in enumerate(result["scores"]):
        cells = page.locator(f"#breakdown tbody tr:not(.total) td[data-seat='{seat}']").all_inner_texts()
        assert sum(int(c) for c in cells if c) == coins
        assert page.locator(f"#breakdown tr.total td[data-seat='{seat}']").inner_text() == str(coins)
    assert (
        page.locator("#breakdown tr[data-item='active_regions'] th").inner_text()
        == "Regions of the active race"
    )
    assert page.locator("#breakdown tr[data-item='start'] td[data-seat='0']").inner_text() == "5"
    page.mouse.move(0, 0)
    page.locator("#end-screen").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "end-screen.png"))
    page.set_viewport_size({"width": 1280, "height": 1500})  # the whole side column in one picture
    page.locator("#end-screen").screenshot(path=str(shots / "end-screen-chart.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    # In German: the same screen in the reader's language.
    page.select_option("#lang", "de")
    assert page.locator("#verdict").inner_text() in (
        "Du hast gewonnen!",
        "Du hast verloren",
        "Du teilst dir den Sieg",
    )
    assert page.locator("#score-chart .axis-title").all_text_contents() == ["Runde", "Münzen"]
    page.select_option("#lang", "en")
    # The spectator sees who won, not "you".
    # (attached: a page in the background paints seldom, so "visible" is not waited for)
    watcher.wait_for_selector("#verdict", state="attached")
    names = {0: "Ada", 1: "Greedy bot"}
    assert watcher.locator("#verdict").inner_text() == f"{', '.join(names[i] for i in result['winners'])} won"
    assert watcher.locator("#verdict").get_attribute("data-won") == ""


def test_the_replay_shows_players_coins_round_and_the_move_in_words(
    page: Page, real_url: str, shots: Path
) -> None:
    gid, summary = finish_against_a_bot(page, real_url, "Bea")
    replay = _get(f"{real_url}api/games/{gid}/replay")
    states = replay["states"]
    opener = replay["actions"][0]["seat"]  # the first player, drawn at the setup (§5)
    name = {0: "Bea", 1: "Greedy bot"}[opener]
    page.click("#open-replay")
    page.wait_for_selector("#replay[data-ply='0']")
    # The start: every seat's 5 coins (§1.3), round 1, the game set up.
    players = page.locator("#replay-players li")
    assert players.count() == 2
    assert players.nth(0).locator(".who").inner_text().endswith("Bea")
    assert players.nth(1).locator(".who").inner_text().endswith("Greedy bot")
    assert players.locator(".coins").all_inner_texts() == ["5 coins", "5 coins"]
    assert page.locator("#replay-where").inner_text().startswith("Round 1 of ")
    assert page.locator("#replay-move li").all_inner_texts() == ["The game is set up"]
    # A move forward: who moved, and the move in words (the first player picks a combo: §6.3).
    page.click("#replay-next")
    page.wait_for_selector("#replay[data-ply='1']")
    assert page.locator("#replay-move h2").inner_text().endswith(name)
    assert page.locator("#replay-decision").inner_text().startswith("pick ")  # the decision, as offered
    first = page.locator("#replay-move li").first.inner_text()
    assert first.startswith(name) and "{" not in first and "⟦" not in first
    assert page.locator("#replay-players li.to-act").get_attribute("data-seat") == str(opener)
    # The keyboard steps too; the last move: the final coins, the last round.
    page.locator("#replay-where").click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay[data-ply='0']")
    page.keyboard.press("End")
    last = summary["ply"]
    page.wait_for_selector(f"#replay[data-ply='{last}']")
    coins = [int(t.split()[0]) for t in players.locator(".coins").all_inner_texts()]
    assert coins == summary["result"]["scores"]
    rounds = states[-1]["round"]
    assert page.locator("#replay-where").inner_text().startswith(f"Round {rounds} of {rounds}")
    # Mid-game: the coins of that move's state, the round it was in.
    mid = last // 2
    page.locator("#replay-slider").fill(str(mid))
    page.locator("#replay-slider").dispatch_event("change")
    page.wait_for_selector(f"#replay[data-ply='{mid}']")
    assert page.locator("#replay-decision").inner_text()  # every move is told, even one that set off nothing
    assert [int(t.split()[0]) for t in players.locator(".coins").all_inner_texts()] == [
        s["coins"] for s in states[mid]["seats"]
    ]
    assert page.locator("#replay").get_attribute("data-round") == str(states[mid]["round"])
    # (the picture: a conquest, with what it cost in words)
    shown = next(p for p in range(mid, last) if any(e["type"] == "conquest" for e in states[p]["events"]))
    page.locator("#replay-slider").fill(str(shown))
    page.locator("#replay-slider").dispatch_event("change")
    page.wait_for_selector(f"#replay[data-ply='{shown}']")
    assert page.locator("#replay-move li").count() >= 1
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "replay.png"))
