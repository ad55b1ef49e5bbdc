"""One voice (issue 28): once the reader switches the language, no screen shows a phrase of the web
catalogue in English where the chosen language says it otherwise. Screens keep parts across their
redraws (the lobby's account box, the header's connection state): each such part must be drawn
again in the new words. Checked on every screen, for German and Portuguese, on the real server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from test_web_a11y import _all_bot_game
from web_driver import WORDS, create_game, my_turn, set_lang, step

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

# What a person sees that is a whole phrase of the catalogue: visible text, and the names and hints
# a screen reader or a hover gives.
ENGLISH_LEFT = """(english) => {
  const seen = (e) => e && !e.closest("[hidden]") && e.getClientRects().length > 0;
  const out = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode.textContent.trim();
    if (t && english.includes(t) && seen(walk.currentNode.parentElement)) out.add(t);
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) {
      const t = (e.getAttribute(a) || "").trim();
      if (t && english.includes(t) && seen(e)) out.add(`${a}: ${t}`);
    }
  }
  return [...out];
}"""


def _english_in(lang: str) -> list[str]:
    """The catalogue's English phrases that `lang` says otherwise (whole phrases with no blanks), less
    those that are also its own words ("Start" is German too)."""
    en, other = WORDS["en"], WORDS[lang]
    phrases = {v.strip() for k, v in en.items() if isinstance(v, str) and "{" not in v and v != other.get(k)}
    own = {v.strip() for v in other.values() if isinstance(v, str)}
    return sorted(p for p in phrases - own if len(p) > 3)


def _left_after_switching(page: Page, ready: str) -> dict[str, list[str]]:
    """The English phrases left on the screen after switching to each language (and back)."""
    page.wait_for_selector(ready)
    left = {}
    for lang in ("de", "pt"):
        set_lang(page, lang)
        # (a screen that loads its words first draws again once they are in: up to 5 s for that)
        english = _english_in(lang)
        for _ in range(10):
            left[lang] = page.evaluate(ENGLISH_LEFT, english)
            if not left[lang]:
                break
            page.wait_for_timeout(500)
    set_lang(page, "en")
    return {lang: phrases for lang, phrases in left.items() if phrases}


def test_no_screen_keeps_english_words_once_another_language_is_chosen(page: Page, real_url: str) -> None:
    bad: dict[str, dict[str, list[str]]] = {}
    page.goto(real_url)
    bad["lobby"] = _left_after_switching(page, "#lobby #account-form")
    create_game(page, real_url, "Vera", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    for _ in range(4):  # a few decisions: the log, the scores and the board have something to say
        if my_turn(page):
            step(page)
    bad["game"] = _left_after_switching(page, "#conn[data-status='online']")
    for where, ready in (
        ("#/leaderboard", "#leaderboard"),
        ("#/tournaments", "#tournaments"),
        ("#/rules", "#rules"),
        ("#/tutorial", "#tutorial"),
    ):
        page.goto(real_url + where)
        bad[where] = _left_after_switching(page, ready)
    # A game of bots that has ended: its end screen, and its replay.
    over = _all_bot_game(real_url)
    page.goto(f"{real_url}#/game/{over}")
    bad["end screen"] = _left_after_switching(page, "#end-screen")
    page.click("#open-replay")
    bad["replay"] = _left_after_switching(page, "#replay")
    # Logged in: the lobby's account and quick game boxes, and the profile.
    account = {"name": "Vera Voice", "password": "correct horse battery"}
    r = page.request.post(real_url + "api/accounts", data=account)
    assert r.ok, r.text()
    page.goto(real_url)
    bad["lobby, logged in"] = _left_after_switching(page, "#lobby #quick-form")
    page.goto(real_url + f"#/player/{r.json()['player']['id']}")
    bad["profile"] = _left_after_switching(page, "#profile")
    bad = {where: left for where, left in bad.items() if left}
    assert bad == {}, bad
