"""Playing through the page: the browser tests' helpers (they click what a person would click)."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from needs import CHROMIUM as CHROMIUM  # the browser, named once (tests/needs.py)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The web client's catalogue, every language's words (smallworld/web/words.json).
_CATALOGUE = Path(__file__).resolve().parents[2] / "smallworld" / "web" / "words.json"
WORDS = json.loads(_CATALOGUE.read_text("utf-8"))
SHOTS = os.environ.get("SMALLWORLD_SHOTS") or os.path.join(tempfile.gettempdir(), "smallworld-web-shots")


def ply(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-ply") or -1)


def phase(page: Page) -> str:
    return page.locator("#game").get_attribute("data-phase") or ""


# What each page's console said (the `page` fixture listens), for the failure of a wait.
CONSOLE: dict[int, list[str]] = {}


def wait_change(page: Page, before: int, timeout: float = 30000) -> None:
    """Until the game moves past `before` or the page shows a refusal (a wait, not a limit: the
    server answers in milliseconds, but a loaded machine can hold a page for seconds)."""
    try:
        page.wait_for_function(
            "b => { const g = document.querySelector('#game');"
            " return (g && +g.dataset.ply > b) || document.querySelector('#message.error'); }",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"the game did not move past ply {before}: {describe(page)}") from None


def wait_ply(page: Page, target: int, timeout: float = 30000) -> None:
    """Until the page shows ply `target` (an undo's), with the page's state in the failure."""
    try:
        page.wait_for_selector(f"#game[data-ply='{target}']", timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the page never showed ply {target}: {describe(page)}") from None


def describe(page: Page) -> str:
    """The page's state in a line, and its last console messages and socket frames, for a failure's
    message."""
    state = page.evaluate(
        "() => { const g = document.querySelector('#game') || {dataset: {}};"
        " const t = (s) => (document.querySelector(s) || {}).textContent || '';"
        " return {ply: g.dataset.ply, phase: g.dataset.phase, acting: g.dataset.acting,"
        " conn: t('#conn'), message: t('#message'), url: location.href}; }"
    )
    return f"{state}; console and socket, last 20: {CONSOLE.get(id(page), [])[-20:]}"


def create_game(
    page: Page,
    url: str,
    name: str,
    seats: list[str],
    variant: str = "standard",
    edition: str = "warcraft",
    clock: str = "turns",
) -> str:
    """Create a game from the lobby form; `seats` are the kinds ("me", "bot", "invite", "hotseat"),
    `clock` the pace ("turns": turn by turn, "live": with a clock)."""
    page.goto(url)
    page.wait_for_selector("#lobby")
    page.fill("#name", name)
    page.select_option("#edition", edition)
    page.select_option("#players", str(len(seats)))
    page.select_option("#variant", variant)
    page.select_option("#clock", clock)
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("#create-game")
    page.wait_for_selector("#game")
    return page.url.rsplit("/", 1)[-1]


def set_lang(page: Page, lang: str) -> None:
    """Choose the page's language from the header, and wait until the page has switched."""
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def my_turn(page: Page) -> bool:
    return page.locator("#game").get_attribute("data-acting") == "yes"


def action_of(el: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(el.get_attribute("data-action"))
    return data


def step(page: Page) -> str:
    """Make one decision through the page the way a person would, and say what it was."""
    before = ply(page)
    if page.locator("#redeploy").count():
        # Place every token left in hand with the + buttons, then send the whole plan.
        # (tokens and troop pieces alike: `data-left` counts both).
        while int(page.locator("#plan-left").get_attribute("data-left") or 0) > 0:
            page.locator("#redeploy button.plus:not([disabled])").first.click()
        page.click("#plan-done")
        wait_change(page, before)
        return "plan"
    offered = page.locator("#board .region.offered")
    if phase(page) == "conquer" or (offered.count() and page.locator("#prompt").count()):
        for i in range(offered.count()):
            offered.nth(i).click()
            buttons = page.locator("#region-info button[data-action]")
            kinds = [action_of(buttons.nth(j))["kind"] for j in range(buttons.count())]
            # Conquer first; the final die attempt only when nothing else is left to do.
            for j, kind in enumerate(kinds):
                if kind not in ("abandon", "final"):
                    buttons.nth(j).click()
                    wait_change(page, before)
                    return kind
    buttons = page.locator("#decisions button[data-action], #combos button[data-action]")
    if buttons.count():
        kinds = [action_of(buttons.nth(j))["kind"] for j in range(buttons.count())]
        # Expanding is the usual choice; `end` closes the conquests when no region was taken.
        for want in ("expand", "pick", "end"):
            if want in kinds:
                buttons.nth(kinds.index(want)).click()
                wait_change(page, before)
                return want
        buttons.first.click()
        wait_change(page, before)
        return kinds[0]
    if offered.count():
        offered.first.click()
        page.locator("#region-info button[data-action]").first.click()
        wait_change(page, before)
        return "region"
    raise AssertionError(f"nothing to do at ply {before}, phase {phase(page)}")


def play_until(page: Page, done: Callable[[], bool], limit: int = 600) -> list[str]:
    """Play this page's seat through the page until `done` (or the end screen); the decisions made."""
    kinds: list[str] = []
    while not done():
        assert len(kinds) < limit, f"no end after {limit} decisions"
        if page.locator("#end-screen").count():
            break
        if not my_turn(page):
            page.wait_for_function(
                "() => document.querySelector('#game')?.dataset.acting === 'yes'"
                " || document.querySelector('#end-screen')"
            )
            continue
        kinds.append(step(page))
        assert not page.locator("#message.error").count(), page.locator("#message").inner_text()
    return kinds


def record_actions(page: Page) -> Callable[[], list[dict[str, Any]]]:
    """Record the decisions the page sends from now on, over its socket (`act` messages) or over
    HTTP (`POST .../act`): the page sends over its socket while it is open (connection.js).
    Answers a function that gives what was sent so far, each as `{seat?, ply, action}`."""
    http: list[dict[str, Any]] = []
    page.on("request", lambda r: r.url.endswith("/act") and http.append(json.loads(r.post_data or "{}")))
    page.evaluate(
        """() => {
            window.__acts = [];
            if (WebSocket.prototype.__recorded) return;
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) {
                try { const m = JSON.parse(data); if (m.type === "act") window.__acts.push(m); } catch {}
                return send.call(this, data);
            };
            WebSocket.prototype.__recorded = true;
        }"""
    )

    def sent() -> list[dict[str, Any]]:
        over_socket: list[dict[str, Any]] = page.evaluate("() => window.__acts")
        return http + over_socket

    return sent


def poll(
    get: Callable[[], Any], done: Callable[[Any], Any], what: str, seconds: float = 300
) -> dict[str, Any]:
    """`get()` (a JSON answer) again every 0.2 s until `done` of it; fails with `what` and the last
    answer after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            got = get()
        except PlaywrightError as e:
            # A kept-alive connection that the server closed as it was reused: a browser sends such
            # a GET again, and so does this (any other error fails the test).
            if "ECONNRESET" not in str(e) or time.monotonic() >= deadline:
                raise
            continue
        if done(got):
            return dict(got)
        assert time.monotonic() < deadline, f"{what}: {got}"
        time.sleep(0.2)
