"""The lobby names each bot level by its difficulty and its ladder rating (issue 30, item 3;
docs/ladder.md), in the reader's language, against the real server."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def test_the_bot_levels_show_their_difficulty_and_ladder_rating(
    new_page: Callable[..., Page], real_url: str
) -> None:
    levels = httpx.get(f"{real_url}api/bots", timeout=30).json()["levels"]
    rating = {lv["level"]: lv["ratings"]["2"]["rating"] for lv in levels if lv["difficulty"]}
    page = new_page()
    page.goto(real_url)
    level = page.locator("select[name=level-1]")
    expect(level.locator("option")).to_have_text([
        f"Easy: Random · ladder {rating['random']}",
        f"Medium: Greedy · ladder {rating['greedy']}",
        f"Hard: MCTS · ladder {rating['mcts']}",
    ])  # fmt: skip
    assert level.input_value() == "greedy"  # the default seat stays the greedy bot
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    expect(page.locator("select[name=level-1] option").first).to_have_text(
        f"Leicht: Zufällig · Rangliste {rating['random']}"
    )
