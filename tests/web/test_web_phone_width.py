"""A phone held upright (390 px): no screen is wider than it, in any of the three languages. A long
choice (a bot level with its rating, a leaderboard's pool), the account box's labels, the header's
words in German, or the end screen's table of where the coins came from (three players) made the
lobby, the leaderboard and the end screen scroll sideways; a wide table now scrolls in its own box."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page
from test_web_a11y import _all_bot_game
from web_driver import create_game, set_lang

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

PHONE = 390
# The elements (outside the board's drawing) that reach past the screen's right edge, and how wide
# the page is.
WIDER = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("svg")) continue;
    const b = e.getBoundingClientRect();
    const scrolls = e.parentElement.closest(".breakdown, .players table");  // (in its own box)
    if (b.width > 0 && b.right > width + 1 && !scrolls)
      out.push(`${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""} to ${Math.round(b.right)}px`);
  }
  return { page: document.documentElement.scrollWidth, wider: out.slice(0, 8) };
}"""


def test_no_screen_is_wider_than_a_phone_in_any_language(
    new_page: Callable[..., Page], real_url: str
) -> None:
    page = new_page(PHONE, 844)
    over = _all_bot_game(real_url, players=3)
    screens = [
        ("lobby", "", "#lobby #account-form"),
        ("leaderboard", "#/leaderboard", "#leaderboard tr.leader"),
        ("tournaments", "#/tournaments", "#tournaments"),
        ("rules", "#/rules", "#rules"),
        ("tutorial", "#/tutorial", "#tutorial"),
        ("end screen", f"#/game/{over}", "#end-screen"),
        ("replay", f"#/replay/{over}", "#replay"),
    ]
    # A leaderboard full of long names and large numbers (the server's answer, made here: this
    # server's pools may be empty).
    leaders = [
        {"place": i + 1, "player": {"id": f"p{i}", "name": f"Bartholomew Longname-Smythe {i}"}, "bot": None,
         "rating": 2345 - i, "uncertainty": 123, "games": 1234, "wins": 987}
        for i in range(25)
    ]
    page.route(
        "**/api/ratings?**",
        lambda route: route.fulfill(
            json={"pool": "warcraft/standard/turn", "total": 60, "offset": 0, "players": leaders}
        ),
    )
    bad: dict[str, Any] = {}
    for lang in ("en", "de", "pt"):
        for name, where, ready in screens:
            page.goto("about:blank")
            page.goto(real_url + where)
            page.wait_for_selector(ready)
            set_lang(page, lang)
            page.wait_for_timeout(300)  # (a screen draws again in the new words)
            found = page.evaluate(WIDER)
            if found["page"] > PHONE or found["wider"]:
                bad[f"{name} ({lang})"] = found
    # A game under way, with a bot's level chosen in the lobby's seats.
    create_game(page, real_url, "Pia", ["me", "bot", "bot"])
    page.wait_for_selector("#board [data-region]")
    for lang in ("de", "en"):
        set_lang(page, lang)
        page.wait_for_timeout(300)
        found = page.evaluate(WIDER)
        if found["page"] > PHONE or found["wider"]:
            bad[f"game ({lang})"] = found
    assert bad == {}, bad
