"""The keyboard (issue 28 item 10, smallworld/web/static/keys.js): skip links, shortcuts listed in a
help dialog, arrows between regions, and focus kept where the player works, so that a typical
decision takes at most 10 key presses. Played on the real server (`smallworld serve`)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_driver import create_game, phase, ply
from web_positions import api, open_in_page

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.model.state import Phase

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _focus(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(
        """() => { const a = document.activeElement;
          return { tag: a.tagName, id: a.id, region: a.dataset ? a.dataset.region || null : null,
                   action: a.dataset && a.dataset.action ? JSON.parse(a.dataset.action) : null,
                   disabled: !!a.disabled, inBoard: !!a.closest('#board') }; }"""
    )
    return data


def _wait_turn(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#game')?.dataset.acting === 'yes'"
        " || document.querySelector('#end-screen')"
    )


class Keys:
    """The key presses of one decision, counted."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.n = 0

    def __call__(self, key: str) -> dict[str, Any]:
        self.page.keyboard.press(key)
        self.n += 1
        return _focus(self.page)


def _conquest_target(page: Page) -> tuple[int, str]:
    """How many arrow presses (right) from the board's tab stop reach the first offered region that
    a `conquer` action names, in the order the arrows walk (the regions' numbers)."""
    found: tuple[int, str] = page.evaluate(
        """() => {
          const sw = window.__sw; const st = sw.shown().st;
          const conquer = new Set(st.legal.filter((a) => a.kind === 'conquer').map((a) => a.region));
          const list = [...document.querySelectorAll('#board [data-region].offered')]
            .sort((a, b) => sw.index[a.dataset.region].n - sw.index[b.dataset.region].n);
          const stop = document.querySelector('#board [data-region][tabindex="0"]');
          let at = list.indexOf(stop);
          let extra = 0;
          if (at < 0) {  // the stop is not offered (a region just taken): the first press goes past it
            const n = (g) => sw.index[g.dataset.region].n;
            const after = list.findIndex((g) => n(g) > n(stop));
            at = after < 0 ? 0 : after;
            extra = 1;
          }
          for (let k = 0; k < list.length; k++) {
            const g = list[(at + k) % list.length];
            if (conquer.has(g.dataset.region)) return [k + extra, g.dataset.region];
          }
          return [-1, ''];
        }"""
    )
    return found


STATE = """() => { const s = window.__sw.shown().st;
  return { ply: s.view.ply, phase: s.view.phase, legal: s.legal.slice(0, 6) }; }"""


KINDS = "() => window.__sw.shown().st.legal.map((a) => a.kind)"


def _decide(page: Page, conquests: int) -> tuple[str, int]:
    """Make this seat's decision with the keyboard alone; answers its kind and the presses it took."""
    page.wait_for_load_state("networkidle")  # the page has caught up (no stale screen to act on)
    if page.locator("#game").get_attribute("data-acting") != "yes":
        _wait_turn(page)
    key = Keys(page)
    before = ply(page)
    if page.locator("#redeploy").count():
        kind = "plan"
        f = key("a")  # the first control of the panel: "+N" (all here)
        while int(page.locator("#plan-left").get_attribute("data-left") or 0) > 0:
            assert key.n < 40, f  # a panel that no longer takes the keys fails here, never hangs
            if f["disabled"] or f["tag"] != "BUTTON" or not f["id"].startswith("plan-"):
                f = key("a")
            f = key("Enter")
        key("d")
    elif phase(page) == "pick":
        f = key("a")  # the first combo's pick (or a decision listed before the combos)
        assert f["action"], f
        kind = f["action"]["kind"]
        key("Enter")
    elif phase(page) == "conquer" and conquests < 2 and _conquest_target(page)[0] >= 0:
        kind = "conquer"
        steps, ref = _conquest_target(page)
        f = key("b")
        assert f["inBoard"], f
        for _ in range(steps):
            f = key("ArrowRight")
        assert f["region"] == ref, (f, ref)
        f = key("Enter")  # the region's panel, its first decision focused
        while not (f["action"] and f["action"]["kind"] == "conquer"):
            assert key.n < 30, f
            f = key("Tab")
        key("Enter")
    elif phase(page) == "conquer" and "end" in page.evaluate(KINDS):
        kind = "end"
        key("d")
    else:
        f = key("a")
        kind = f["action"]["kind"] if f["action"] else "?"
        key("Enter")
    moved = "b => +document.querySelector('#game').dataset.ply > b"
    moved += " || document.querySelector('#message.error')"
    try:
        page.wait_for_function(moved, arg=before)
    except PlaywrightTimeout as e:
        state = page.evaluate(STATE)
        raise AssertionError(f"{kind} after {key.n} presses: unmoved {state}, focus {_focus(page)}") from e
    assert not page.locator("#message.error").count(), page.locator("#message").inner_text()
    return kind, key.n


def test_one_keyboard_only_turn_takes_at_most_ten_presses_a_decision(
    page: Page, real_url: str, shots: Path
) -> None:
    create_game(page, real_url, "Kay", ["me", "bot"])  # the lobby's form; from here on, keys only
    page.mouse.move(0, 0)
    _wait_turn(page)
    turn = "() => { const v = window.__sw.shown().st.view; return [v.round, v.turn_seat]; }"
    this_turn = page.evaluate(turn)  # this seat's first turn
    made: list[tuple[str, int]] = []
    while True:
        _wait_turn(page)
        if page.locator("#end-screen").count():
            break
        kind, n = _decide(page, sum(1 for k, _ in made if k == "conquer"))
        made.append((kind, n))
        # Focus is never dropped to the page after a decision.
        page.wait_for_timeout(100)
        assert _focus(page)["tag"] != "BODY", made
        if kind == "plan":
            break
        assert len(made) < 12, made
        if kind == "conquer" and len([k for k, _ in made if k == "conquer"]) == 1:
            page.screenshot(path=str(shots / "keyboard-turn.png"))
    kinds = [k for k, _ in made]
    # "end" is the player's unless the conquests ran out by themselves (the last attempt's die).
    for want in ("pick", "conquer", "plan"):
        assert want in kinds, made
    average = sum(n for _, n in made) / len(made)
    print("key presses per decision:", json.dumps(made), f"average {average:.1f}")
    assert average <= 10, made
    # The turn goes on to its end (the bot then plays): whatever is left, with the keyboard too.
    page.wait_for_load_state("networkidle")
    while page.locator("#game").get_attribute("data-acting") == "yes" and page.evaluate(turn) == this_turn:
        made.append(_decide(page, 2))
        page.wait_for_load_state("networkidle")
        assert len(made) < 16, made
    print("the whole turn:", json.dumps(made))
    assert sum(n for _, n in made) / len(made) <= 10, made


def test_skip_links_the_help_dialog_and_arrows(page: Page, real_url: str, shots: Path) -> None:
    create_game(page, real_url, "Sol", ["me", "bot"])
    _wait_turn(page)
    page.reload()  # the tab order from the top of the page
    page.wait_for_selector("#combos button[data-action]")
    page.keyboard.press("Tab")
    f = _focus(page)
    assert f["tag"] == "A" and page.locator("#skip-links a").first.inner_text() == "Skip to the board"
    page.keyboard.press("Enter")
    f = _focus(page)
    assert f["inBoard"] and f["region"], f
    # Arrows walk the regions by number (with Shift: all of them, here none is offered).
    start = f["region"]
    page.keyboard.press("Shift+ArrowRight")
    nxt = _focus(page)["region"]
    n = page.evaluate("(refs) => refs.map((r) => window.__sw.index[r].n)", [start, nxt])
    assert nxt != start and (n[1] == n[0] + 1 or n[1] == 0), n
    page.keyboard.press("Shift+ArrowLeft")
    assert _focus(page)["region"] == start
    # One stop of the tab order for the whole board: Tab leaves it at once.
    page.keyboard.press("Tab")
    assert not _focus(page)["inBoard"]
    # The second skip link lands on the decisions: here the first combo's pick.
    page.evaluate("() => document.querySelector('#skip-links a').focus()")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    f = _focus(page)
    assert f["action"] and f["action"]["kind"] == "pick", f
    # An update redraws the screen (here forced): the focused decision's successor keeps the focus.
    page.evaluate("() => window.__sw.render()")
    assert _focus(page)["action"] == f["action"]
    # "?" lists the shortcuts; Esc closes the list and gives the focus back.
    page.keyboard.press("?")
    dialog = page.locator("#keys-help")
    assert dialog.is_visible() and dialog.locator("tr").count() == 8
    assert {"d", "u"} <= set(dialog.locator("kbd").all_inner_texts())
    page.screenshot(path=str(shots / "keyboard-help.png"))
    page.keyboard.press("Escape")
    assert not dialog.is_visible() and _focus(page)["action"]["kind"] == "pick"
    # In the reader's language.
    page.select_option("#lang", "de")
    assert page.locator("#skip-links a").first.inner_text() == "Zum Spielplan springen"
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("?")
    assert dialog.locator("h2").inner_text() == "Tastenkürzel"
    page.keyboard.press("Escape")
    page.select_option("#lang", "en")


def _redeploying_with_a_beast() -> dict[str, Any]:
    """A 2-player position where seat 0 redeploys (§6.12) with tokens and a Beast in hand (AMB-63:
    pieces are placed too), found by playing random legal moves from a fixed seed; boards pinned."""
    game = Game.from_settings({"players": 2, "seed": 1})
    st = game.new_initial_state()
    rng = random.Random(1)
    while not (
        st.phase == Phase.REDEPLOY
        and not st.pending
        and st.acting_seat == 0
        and st.seats[0].hand > 1
        and st.seats[0].held.get("beast")
    ):
        assert st.result is None
        st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
    settings = {**game.settings.to_json(), "boards": [s.id for s in game.map.sides]}
    return {"format": "smallworld-position/1", "settings": settings, "position": state_to_json(st)}


def test_after_all_the_tokens_the_focus_goes_to_what_is_left_to_place(page: Page, real_url: str) -> None:
    """§6.12, AMB-63: with tokens and a Beast in hand, "a" and Enter put every token on the first
    region ("+N"); the focus then goes to the Beast's "+" on that row (not to "−", where the next
    Enter took back what was just placed), and once nothing is left, to "Done"."""
    both = [{"kind": "creator"}, {"kind": "creator"}]
    created = api(
        real_url,
        "POST",
        "/api/games",
        {"name": "Kay", "seats": both, "position": _redeploying_with_a_beast()},
    )
    mine = {**created, "seats": [s for s in created["seats"] if s["seat"] == 0]}
    open_in_page(page, real_url, created["game"], mine)
    page.wait_for_selector("#redeploy")
    key = Keys(page)
    f = key("a")
    assert f["id"].startswith("plan-all-tokens-"), f
    row = f["id"].removeprefix("plan-all-tokens-")
    f = key("Enter")
    assert page.locator("#plan-left").get_attribute("data-tokens") == "0"
    assert f["id"] == f"plan-plus-beast-{row}" and not f["disabled"], f
    f = key("Enter")
    assert page.locator("#plan-left").get_attribute("data-left") == "0"
    assert f["id"] == "plan-done" and not f["disabled"], f
