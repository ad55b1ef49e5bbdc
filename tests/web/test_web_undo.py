"""Undo in the page (issue 28, item 4) against the real server: a conquest is taken back with the
button or the `u` key (the region and the tokens in hand come back, for a spectator too), and after
the reinforcement die (warcraft-rules.md §6.10) nothing before it can be taken back."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from web_driver import create_game, ply, step, wait_change, wait_ply

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

def _shown(page: Page) -> dict[str, Any]:
    st: dict[str, Any] = page.evaluate("() => window.__sw.shown().st")
    return st


def _my_turn(page: Page) -> None:
    page.wait_for_selector("#game[data-acting='yes']", timeout=60000)


def _click_action(page: Page, action: dict[str, Any]) -> None:
    """Send a decision through its button in the list of every decision (opened first)."""
    before = ply(page)
    if not page.locator("#all-actions details[open]").count():
        page.click("#all-actions summary")
    page.locator(f"#all-actions button[data-action='{json.dumps(action, separators=(',', ':'))}']").click()
    wait_change(page, before)


def _undo_post(url: str, gid: str, token: str, seat: int, to_ply: int) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        f"{url}api/games/{gid}/undo",
        data=json.dumps({"seat": seat, "to_ply": to_ply}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_conquest_taken_back_in_the_page_and_none_after_the_die(
    page: Page, new_page: Any, real_url: str, shots: Path
) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    seat = int(next(iter(json.loads(page.evaluate(f"() => localStorage.getItem('sw.seats.{gid}')")))))
    token = json.loads(page.evaluate(f"() => localStorage.getItem('sw.seats.{gid}')"))[str(seat)]
    _my_turn(page)
    # The pick draws the next combo onto the row (§6.3): nothing to take back after it.
    assert step(page) == "pick"
    assert page.locator("#undo").count() == 0
    spectator = new_page()
    spectator.goto(f"{real_url}#/game/{gid}")
    spectator.wait_for_selector("#game[data-ply]")

    before = _shown(page)
    while before["legal"] and not any(a["kind"] == "conquer" for a in before["legal"]):
        _click_action(page, before["legal"][0])  # a start-of-turn choice of the race (a form, a faction)
        before = _shown(page)
    conquest = next(a for a in before["legal"] if a["kind"] == "conquer")
    region = conquest["region"]
    hand = before["view"]["seats"][seat]["hand"]
    _click_action(page, conquest)
    after = _shown(page)
    assert after["view"]["regions"][region]["race"] == before["view"]["seats"][seat]["active"]
    assert after["view"]["seats"][seat]["hand"] < hand
    page.wait_for_selector("#undo #undo-last")
    assert page.locator("#undo-last").get_attribute("data-ply") == str(before["view"]["ply"])
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "undo-offered.png"))
    page.locator("#undo").screenshot(path=str(shots / "undo.png"))

    # The `u` key takes the conquest back: the region as it was, the tokens back in hand.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("u")
    wait_ply(page, before["view"]["ply"])
    back = _shown(page)
    assert back["view"]["regions"].get(region) == before["view"]["regions"].get(region)
    assert back["view"]["seats"][seat]["hand"] == hand
    # What could be taken back before the conquest (a race's start-of-turn choice) still can.
    assert [p["ply"] for p in back["undo_points"]] == [p["ply"] for p in before["undo_points"]]
    assert page.locator("#undo").count() == (1 if before["undo_points"] else 0)
    assert not page.locator("#message.error").count()
    # The spectator sees the position go back too, without reloading.
    spectator.wait_for_selector(f"#game[data-ply='{before['view']['ply']}']")
    seen = spectator.evaluate("() => window.__sw.shown().st.view")
    assert seen["regions"].get(region) == before["view"]["regions"].get(region)

    # Two conquests, then the menu goes back over both at once.
    for _ in range(2):
        st = _shown(page)
        conquers = [a for a in st["legal"] if a["kind"] == "conquer"]
        if not conquers:
            break
        _click_action(page, conquers[0])
    points = _shown(page)["undo_points"]
    if len(points) > 1:
        page.click("#undo-more summary")
        page.mouse.move(0, 0)
        page.locator("#undo").screenshot(path=str(shots / "undo.png"))
        page.locator(f"#undo-more button[data-ply='{points[-1]['ply']}']").click()
        wait_ply(page, points[-1]["ply"])
        assert _shown(page)["view"]["seats"][seat]["hand"] == hand

    # Conquer until the final attempt is offered, then roll the die (§6.10).
    for _ in range(300):
        st = _shown(page)
        if not st["legal"]:
            _my_turn(page)
            continue
        final = [a for a in st["legal"] if a["kind"] == "final"]
        if final and st["view"]["phase"] == "conquer":
            break
        step(page)
    else:
        raise AssertionError("no final attempt was ever offered")
    earlier = st["undo_points"][0]["ply"] if st["undo_points"] else st["view"]["ply"] - 1
    _click_action(page, final[0])
    rolled = _shown(page)
    assert any(e["type"] == "die" for e in rolled["view"]["events"])
    assert page.locator("#undo").count() == 0
    # `u` does nothing, and the server refuses an undo past the die, changing nothing.
    page.keyboard.press("u")
    status, body = _undo_post(real_url, gid, token, seat, earlier)
    assert (status, body["code"]) == (409, "undo_refused"), body
    assert "die roll" in body["message"]
    assert ply(page) == rolled["view"]["ply"]
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "undo-after-die.png"))


def test_a_game_made_without_take_backs_offers_no_undo(page: Page, real_url: str) -> None:
    # docs/server.md, Undo: the lobby's "take-backs allowed", unticked, makes a casual game whose
    # decisions are final.
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    page.fill("#name", "Nia")
    page.uncheck("#allow-undo")
    page.click("#create-game")
    page.wait_for_selector("#game")
    gid = page.url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{real_url}api/games/{gid}", timeout=20) as r:
        assert json.loads(r.read())["undo"] is False
    _my_turn(page)
    assert step(page) == "pick"
    _click_action(page, _shown(page)["legal"][0])
    st = _shown(page)
    while st["legal"] and not any(a["kind"] == "conquer" for a in st["legal"]):
        _click_action(page, st["legal"][0])
        st = _shown(page)
    _click_action(page, next(a for a in st["legal"] if a["kind"] == "conquer"))
    assert _shown(page)["undo_points"] == []
    assert page.locator("#undo").count() == 0
