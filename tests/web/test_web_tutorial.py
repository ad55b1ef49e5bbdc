"""Issue 28, item 3: the first-game tutorial. Lessons shipped with the package
(smallworld/web/tutorial/*.json), each a casual game against a bot from a position, played from the
lobby with a hint for each step in the reader's language: pick a combo, conquer, redeploy and score
(§6.3, §6.5, §6.12, §6.14); the reinforcement die (§6.10); going into Decline (§6.16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page
from web_driver import my_turn, play_until, step
from web_positions import api, summary

from smallworld import scenario
from smallworld.web import payload
from smallworld.web.rules import lessons


def _hint(page: Page) -> tuple[str, str]:
    box = page.locator("#tutorial-hint")
    return box.get_attribute("data-step") or "", box.inner_text()


def _start(page: Page, url: str, n: int) -> str:
    """From the lobby to lesson `n` (1-based) through the page; the lesson's game id."""
    page.goto(url)
    page.wait_for_selector("#lobby")
    page.click("#tutorial-link")
    page.wait_for_selector("#tutorial")
    page.locator(".start-lesson").nth(n - 1).click()
    page.wait_for_selector("#game #tutorial-hint")
    return page.url.rsplit("/", 1)[-1]


def test_every_lesson_loads_and_has_its_hints_in_three_languages() -> None:
    web = payload.web_catalogue()
    assert [x["lesson"] for x in lessons()] == ["first_turn", "die", "decline"]
    for lesson in lessons():
        st = scenario.build(lesson["position"])  # the engine's loader: a real position
        assert st.result is None and st.acting_seat == 0 and st.turn_seat == 0, lesson["lesson"]
        assert "done" in lesson["hints"] and st.phase.value in lesson["hints"], lesson["lesson"]
        for lang in ("en", "pt", "de"):
            for key in [*lesson["hints"].values(), f"tutorial.{lesson['lesson']}.title"]:
                assert web[lang].get(key), (lang, key)


@pytest.mark.browser
def test_the_first_lesson_pick_conquer_redeploy_score(page: Page, real_url: str, shots: Path) -> None:
    gid = _start(page, real_url, 1)
    s = summary(real_url, gid)
    assert s["from_position"] is True and s["settings"]["boards"] == ["L2a"]
    assert [x["kind"] for x in s["seats"]] == ["human", "bot"]
    hints = payload.web_catalogue()["en"]
    assert _hint(page)[0] == "pick"
    assert page.locator("#tutorial-hint h2").inner_text() == f"Hint · {hints['tutorial.first_turn.title']}"
    assert page.locator("#tutorial-hint p").inner_text() == hints["tutorial.first_turn.pick"]
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "tutorial.png"))
    seen = []
    while _hint(page)[0] != "done":
        assert len(seen) < 60
        if my_turn(page):
            seen.append(_hint(page)[0])
            step(page)
        else:
            page.wait_for_timeout(100)
    # (after the redeployment, some combos place pieces of their own: the general hint, §6.13)
    assert seen[0] == "pick" and "conquer" in seen and "redeploy" in seen
    text = _hint(page)[1]
    assert hints["tutorial.first_turn.done"] in text and "Lesson done!" in text
    # The turn was scored: the first score event of the game is this seat's.
    moves = api(real_url, "GET", f"/api/games/{gid}/moves?since=0")["moves"]
    scored = [e for m in moves for e in m["events"] if e["type"] == "score"]
    assert scored and scored[0]["seat"] == 0 and scored[0]["total"] >= 1
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "tutorial-done.png"))
    # On to the next lesson.
    page.click("#next-lesson")
    page.wait_for_function(f"() => location.hash.startsWith('#/game/') && !location.hash.endsWith('{gid}')")
    page.wait_for_selector("#tutorial-hint[data-lesson='die'][data-step='conquer']")


@pytest.mark.browser
def test_the_die_lesson_makes_the_last_conquest_with_the_die(page: Page, real_url: str) -> None:
    """§6.10: 2 tokens in hand, Ironbark Hollow (L2a:3) costs 3: the last attempt with the die,
    scripted to roll 2 in the lesson, takes it."""
    gid = _start(page, real_url, 2)
    assert _hint(page)[0] == "conquer"
    page.click("#board [data-region='L2a:3']")
    final = page.locator("#region-info button[data-action*='final']")
    assert final.count() == 1
    final.click()
    page.wait_for_selector("#redeploy")
    assert _hint(page)[0] == "redeploy"
    moves = api(real_url, "GET", f"/api/games/{gid}/moves?since=0")["moves"]
    assert moves[0]["action"] == {"kind": "final", "region": "L2a:3"}
    die = [e for e in moves[0]["events"] if e["type"] == "die"]
    assert die and die[0]["roll"] == 2
    view = page.evaluate("() => window.__sw.shown().st.view")
    assert view["regions"]["L2a:3"]["race"] == "orcs"
    play_until(page, lambda: _hint(page)[0] == "done")
    assert "The die rolls only once a turn" in _hint(page)[1]


@pytest.mark.browser
def test_the_decline_lesson_in_german(page: Page, real_url: str) -> None:
    """§6.16: the Orcs go into Decline through the page, and score as the hint says (§6.14)."""
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert page.locator("#tutorial-link").inner_text() == "Spielen lernen"
    gid = _start(page, real_url, 3)
    de = payload.web_catalogue()["de"]
    step_, text = _hint(page)
    assert step_ == "start" and de["tutorial.decline.start"] in text and "Hinweis · Untergehen" in text
    page.click('#decisions button[data-action=\'{"kind":"decline"}\']')
    page.wait_for_selector("#tutorial-hint[data-step='done']")
    assert de["tutorial.decline.done"] in _hint(page)[1] and "Lektion geschafft!" in _hint(page)[1]
    assert page.locator("#next-lesson").count() == 0  # the last lesson
    moves = api(real_url, "GET", f"/api/games/{gid}/moves?since=0")["moves"]
    assert moves[0]["action"] == {"kind": "decline"}
    score = next(e for e in moves[0]["events"] if e["type"] == "score")
    assert score["seat"] == 0 and score["items"]["declined_regions"] == 4  # 4 regions In Decline
    page.select_option("#lang", "en")
