"""Accessibility and the phone (issue 28 item 10), on the real server (`smallworld serve`):
axe-core (the `axe-playwright-python` package, its own axe.min.js) finds no moderate, serious or
critical violation on any screen (lobby, game, redeployment, the shortcuts' dialog, end screen, replay, and
the phone's); on a phone held upright (390×844) a tapped region's panel, its cost and its button,
opens beside the tap, in view without scrolling; and every tap target is 24×24 px at the least
(WCAG 2.2, 2.5.8)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page
from web_driver import create_game, play_until, ply, wait_change

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

AXE = Axe()
PHONE = {"width": 390, "height": 844}


def _serious(page: Page, screen: str) -> list[str]:  # (moderate too: every screen has its h1)
    """axe-core's moderate, serious and critical violations on the page as it is now."""
    found = AXE.run(page).response["violations"]
    return [
        f"{screen}: {v['impact']} {v['id']} at {[n['target'] for n in v['nodes'][:5]]}"
        for v in found
        if v["impact"] in ("moderate", "serious", "critical")
    ]


# Every control a finger may tap: its box, where it is shown.
SMALL_TARGETS = """() => [...document.querySelectorAll('button, a, input, select, summary, textarea')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const b = e.getBoundingClientRect();
    return { what: `${e.tagName} ${e.id || e.className || ''} ${e.textContent.trim().slice(0, 20)}`,
             w: Math.round(b.width * 10) / 10, h: Math.round(b.height * 10) / 10 }; })
  .filter((t) => t.w < 24 || t.h < 24)"""


def _all_bot_game(url: str, players: int = 2) -> str:
    """A game of random bots (2 by default), played by the server to its end (a second or a few)."""

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        }
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url + path, method=method, data=data, headers=headers)
        with urllib.request.urlopen(req, timeout=20) as r:
            return json.loads(r.read())

    token = call("POST", "api/players", {"name": "Axe"})["player_token"]
    bots = [{"kind": "bot", "level": "random"}] * players
    spec = {"players": players, "seats": bots, "clock": {"kind": "turn"}}
    gid: str = call("POST", "api/games", spec, token)["game"]
    deadline = time.monotonic() + 120
    while call("GET", f"api/games/{gid}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.5)
    return gid


def test_no_moderate_serious_or_critical_violation_on_any_screen(
    page: Page, new_page: Any, real_url: str
) -> None:
    bad: list[str] = []
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    bad += _serious(page, "lobby")
    create_game(page, real_url, "Ida", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes'] #combos button[data-action]")
    bad += _serious(page, "game")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-help[open]")
    bad += _serious(page, "shortcuts")
    page.keyboard.press("Escape")
    play_until(page, lambda: page.locator("#redeploy").count() > 0)
    page.locator("#board .region.offered").first.click()
    bad += _serious(page, "redeployment")
    gid = _all_bot_game(real_url)
    end = new_page()
    end.goto(f"{real_url}#/game/{gid}")
    end.wait_for_selector("#end-screen")
    bad += _serious(end, "end screen")
    end.click("#open-replay")
    end.wait_for_selector("#replay")
    bad += _serious(end, "replay")
    phone = new_page(**PHONE)
    phone.goto(real_url)
    phone.wait_for_selector("#lobby")
    bad += _serious(phone, "phone lobby")
    phone.goto(f"{real_url}#/game/{gid}")
    phone.wait_for_selector("#end-screen")
    bad += _serious(phone, "phone end screen")
    assert bad == [], "\n".join(bad)


def test_a_tapped_region_opens_its_panel_beside_the_tap_on_a_phone(
    browser: Any, real_url: str, shots: Path
) -> None:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    try:
        page.goto(real_url)
        page.wait_for_selector("#lobby")
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], f"lobby: {small}"
        create_game(page, real_url, "Pia", ["me", "bot"])
        page.wait_for_selector("#game[data-acting='yes'] #combos button[data-action]")
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], f"game: {small}"
        before = ply(page)
        page.locator("#combos button[data-action]").first.tap()
        wait_change(page, before)  # (a loaded machine can take seconds to answer: a wait, not a limit)
        offered = "#game[data-phase='conquer'][data-acting='yes'] #board .region.offered"
        decision = "#game[data-acting='yes'] #decisions button[data-action]"
        for _ in range(5):
            page.wait_for_selector(f"{offered}, {decision}", timeout=30_000)
            if page.locator(offered).count():
                break
            # A decision before the first conquest (a race that takes a form first: 1 deal in 25),
            # tapped as a person would.
            before = ply(page)
            page.locator(decision).first.tap()
            wait_change(page, before)
        # A region far down the board: its panel opens by it, not ~1,000 px further down the page.
        regions = page.locator("#board .region.offered")
        target = regions.nth(regions.count() - 1)
        target.scroll_into_view_if_needed()
        target.tap()
        page.wait_for_selector("#region-info.popover button[data-action]")
        page.wait_for_timeout(200)
        box = page.evaluate(
            """() => { const p = document.querySelector('#region-info').getBoundingClientRect();
              const ref = document.querySelector('#region-info').dataset.region;
              const r = document.querySelector(`#board [data-region="${ref}"]`).getBoundingClientRect();
              const b = document.querySelector('#region-info button[data-action]').getBoundingClientRect();
              return { top: p.top, bottom: p.bottom, left: p.left, right: p.right, button: b.bottom,
                       gap: Math.max(0, p.top - r.bottom, r.top - p.bottom),
                       tip: !document.querySelector('#tooltip').hidden,
                       cost: !!document.querySelector('#region-info #explain'),
                       h: innerHeight, w: innerWidth }; }"""
        )
        assert (
            box["top"] >= 0 and box["bottom"] <= box["h"] and box["left"] >= 0 and box["right"] <= box["w"]
        ), box
        assert box["button"] <= box["h"] and box["cost"], box
        assert box["gap"] <= 12, box  # beside the region tapped
        assert not box["tip"], box  # no tooltip left behind by a tap
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], f"region panel: {small}"
        page.screenshot(path=str(shots / "phone-region-panel.png"))
        bad = _serious(page, "phone game")
        assert bad == [], bad
        # Its button acts from there; the × closes it.
        page.tap("#region-close")
        assert page.locator("#region-info").count() == 0
    finally:
        ctx.close()
