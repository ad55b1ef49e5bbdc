"""Issue 28, item 3: learning the game in the client. The rules page of each edition (#/rules/EDITION)
lists the turn's steps and every race, power, Artifact and Legendary Place with its card, from the
catalogues, in the reader's language; the region panel and the board's tooltip show the rules card
of the Artifacts and Places (§10) in a region, and a face-down marker is explained (§10.1). On the
real server (`smallworld serve`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page
from web_positions import L2A, open_position, orcs_against

from smallworld.engine.api.game import Game
from smallworld.web import payload

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _words(edition: str) -> dict[str, dict[str, dict[str, str]]]:
    return payload.words(Game.from_settings({"players": 2, "seed": 0, "edition": edition}))


def _lang(page: Page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def _keep(page: Page, shots: Path, name: str) -> None:
    """A screenshot among the run's shots (docs/web/NAME is a copy, looked at, for docs/web.md)."""
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / name))


def test_the_rules_page_of_each_edition_from_the_catalogues(page: Page, real_url: str, shots: Path) -> None:
    words = _words("warcraft")
    game = Game.from_settings({"players": 2, "seed": 0})
    ed = game.edition
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    page.click("#rules-link")  # the top bar's link, from the lobby
    page.wait_for_selector("#rules[data-edition='warcraft']")
    assert page.url.endswith("#/rules/warcraft")
    # The turn, step by step: seven steps, each with its section of the rules (§6.10: the die).
    steps = page.locator("#rules-turn li[data-step]")
    assert [steps.nth(i).get_attribute("data-step") for i in range(steps.count())] == [
        "pick", "start", "conquer", "final", "redeploy", "score", "end",
    ]  # fmt: skip
    final = page.locator("#rules-turn li[data-step='final']").inner_text()
    assert "§6.10" in final and "0, 0, 0, 1, 2, 3" in final
    assert "2 players: 10 rounds" in page.locator("#rules-rounds").inner_text()
    # Every unit once, with its card from the catalogues.
    for section, ids in (
        ("races", ed.races),
        ("powers", ed.powers),
        ("artifacts", [i for i, e in ed.relics.items() if e.group == "artifact"]),
        ("places", [i for i, e in ed.relics.items() if e.group == "place"]),
    ):
        cards = page.locator(f"#rules-{section} .rules-card")
        shown = {cards.nth(i).get_attribute("data-unit") for i in range(cards.count())}
        assert shown == set(ids) and cards.count() == len(ids), section
    assert page.locator("#rules-artifacts .rules-card").count() == 5
    assert page.locator("#rules-places .rules-card").count() == 7
    karazhan = page.locator("#rules-places [data-unit='karazhan']")
    assert words["karazhan"]["en"]["card"] in karazhan.inner_text() and "§10.3" in karazhan.inner_text()
    orcs = page.locator("#rules-races [data-unit='orcs']").inner_text()
    assert "Orcs · 6 tokens · Horde" in orcs and words["orcs"]["en"]["card"] in orcs
    _keep(page, shots, "rules-page.png")
    # In Portuguese and German: the page's words and every card.
    for lang, title, places in (
        ("pt", "Regras: Small World of Warcraft", "Lugares Lendários"),
        ("de", "Regeln: Small World of Warcraft", "Legendäre Orte"),
    ):
        _lang(page, lang)
        assert page.locator("#rules h1").inner_text() == title
        assert page.locator("#rules-places h2").inner_text() == places
        assert words["karazhan"][lang]["card"] in karazhan.inner_text()
        assert page.locator("#rules-link").inner_text() == words["web"][lang]["rules"]
    _lang(page, "de")
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "rules-page-de.png"))
    _lang(page, "en")
    # The classic edition: its own races and powers, no markers.
    page.click("#rules nav a[data-edition='classic']")
    page.wait_for_selector("#rules[data-edition='classic']")
    classic = Game.from_settings({"players": 2, "seed": 0, "edition": "classic"}).edition
    assert page.locator("#rules-races .rules-card").count() == len(classic.races)
    assert page.locator("#rules-powers .rules-card").count() == len(classic.powers)
    assert page.locator("#rules-artifacts, #rules-places").count() == 0
    first = next(iter(classic.races))
    shown = page.locator(f"#rules-races [data-unit='{first}']").inner_text()
    assert _words("classic")[first]["en"]["card"] in shown
    page.click("#rules-back")
    page.wait_for_selector("#lobby")


def test_artifacts_and_places_show_their_rules_card(page: Page, real_url: str, shots: Path) -> None:
    """§10: Karazhan (a Place) face up in the human's region, Frostmourne (an Artifact) face up in
    the bot's, Doomhammer face down (§10.1: revealed when a race enters); each region's panel shows
    its markers' cards, and so does the board's tooltip on hover."""
    words = _words("warcraft")
    markers = {
        "L2a:12": [{"id": "karazhan", "face_up": True}],
        "L2a:3": [{"id": "frostmourne", "face_up": True}],
        "L2a:5": [{"id": "doomhammer", "face_up": False}],
    }
    gid = open_position(page, real_url, L2A, orcs_against("humans", 2, markers=markers))
    page.click("#board [data-region='L2a:12']")
    card = page.locator("#region-info[data-region='L2a:12'] #marker-cards [data-marker='karazhan']")
    assert card.get_attribute("data-group") == "place"
    assert card.inner_text().startswith("Karazhan · Legendary Place")
    assert words["karazhan"]["en"]["card"] in card.inner_text()
    page.click("#board [data-region='L2a:3']")
    card = page.locator("#region-info[data-region='L2a:3'] #marker-cards [data-marker='frostmourne']")
    assert card.get_attribute("data-group") == "artifact" and "Artifact" in card.inner_text()
    assert words["frostmourne"]["en"]["card"] in card.inner_text()
    page.locator("#region-info").scroll_into_view_if_needed()
    _keep(page, shots, "relic-card.png")
    # The face-down marker: what it is, without telling which.
    page.click("#board [data-region='L2a:5']")
    hidden = page.locator("#region-info[data-region='L2a:5'] #marker-cards [data-marker='hidden']")
    assert "A face-down marker" in hidden.inner_text() and "§10.1" in hidden.inner_text()
    assert "Doomhammer" not in page.locator("#region-info").inner_text()
    # A region with no marker has no cards.
    page.click("#board [data-region='L2a:6']")
    assert page.locator("#region-info[data-region='L2a:6'] #marker-cards").count() == 0
    # In German, in the panel and in the board's tooltip.
    _lang(page, "de")
    page.click("#board [data-region='L2a:12']")
    card = page.locator("#region-info #marker-cards [data-marker='karazhan']")
    assert "Legendärer Ort" in card.inner_text() and words["karazhan"]["de"]["card"] in card.inner_text()
    page.locator("#board [data-region='L2a:3']").hover()
    tip = page.locator("#tooltip[data-region='L2a:3']")
    tip.wait_for(state="visible")
    assert "Artefakt" in tip.inner_text() and words["frostmourne"]["de"]["card"] in tip.inner_text()
    _lang(page, "en")
    # The rules page from the game, and back to it.
    page.click("#rules-link")
    page.wait_for_selector("#rules[data-edition='warcraft']")
    assert page.url.endswith(f"#/rules/warcraft/{gid}")
    page.click("#rules-back")
    page.wait_for_selector("#game")
    assert page.url.endswith(f"#/game/{gid}")


def test_the_rules_page_fits_a_phone(new_page: Callable[..., Page], real_url: str, shots: Path) -> None:
    page = new_page(390, 844)
    page.goto(f"{real_url}#/rules/warcraft")
    page.wait_for_selector("#rules[data-edition='warcraft'] #rules-places")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "rules-page-phone.png"))
