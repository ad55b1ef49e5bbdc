"""A phone held upright (390 px): no screen is wider than it, in any of the three languages. A long
choice (a bot level with its rating, a leaderboard's pool), the account box's labels, the header's
words in German, or the end screen's table of where the coins came from (three players) made the
lobby, the leaderboard and the end screen scroll sideways; a wide table now scrolls in its own box."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page
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


def _three_bots_game(url: str) -> str:
    """A 3-player game of random bots, played by the server to its end (a few seconds)."""

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        headers = {"Content-Type": "application/json", **auth}
        data = json.dumps(body).encode() if body is not None else None
        with urllib.request.urlopen(
            urllib.request.Request(url + path, method=method, data=data, headers=headers), timeout=20
        ) as r:
            return json.loads(r.read())

    token = call("POST", "api/players", {"name": "Pia"})["player_token"]
    bots = [{"kind": "bot", "level": "random"}] * 3
    gid: str = call("POST", "api/games", {"players": 3, "seats": bots}, token)["game"]
    deadline = time.monotonic() + 120
    while call("GET", f"api/games/{gid}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.5)
    return gid


def test_no_screen_is_wider_than_a_phone_in_any_language(
    new_page: Callable[..., Page], real_url: str
) -> None:
    page = new_page(PHONE, 844)
    over = _three_bots_game(real_url)
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
