"""One socket and an honest connection (issue 28, items 12 and 8; docs/web.md "One socket, an honest
connection"), in Chromium against the real server: a whole game against a bot costs the page at
most about one HTTP request per decision (the socket brings the view, the legal actions and the
words; the decisions go over it too), the page says when it is offline within seconds and catches
up with the moves made meanwhile when it is back, a network failure is said in words and clears,
and a move refused because another window moved first is said in words and the page refreshes."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from web_driver import create_game, my_turn, ply, step

WORDS = json.loads((Path(__file__).resolve().parents[2] / "smallworld/web/words.json").read_text("utf-8"))


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _post(url: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _seat_token(page: Page, gid: str, seat: int) -> str:
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('sw.seats.{gid}'))['{seat}']")
    assert isinstance(token, str)
    return token


def _act_as(base: str, gid: str, seat: int, token: str, which: int = 0) -> int:
    """Another window of `seat` makes one of the seat's legal decisions (`which`: its index)."""
    v = _view_with(base, gid, token)
    status, answer = _post(
        f"{base}api/games/{gid}/act", {"seat": seat, "ply": v["ply"], "action": v["legal"][which]}, token
    )
    assert status == 200, answer
    return int(answer["ply"])


def _view_with(base: str, gid: str, token: str) -> dict[str, Any]:
    req = urllib.request.Request(f"{base}api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def test_a_whole_game_against_a_bot_costs_at_most_one_request_per_decision(
    browser: Browser, real_url: str
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    loading: list[str] = []
    page.on("request", lambda r: loading.append(r.url))
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-ply]")
    at_load = len(loading)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    decisions = 0
    for _ in range(400):
        if _get(f"{real_url}api/games/{gid}")["status"] == "over":
            break
        page.wait_for_function(
            "() => { const g = document.querySelector('#game');"
            " return g && (g.dataset.acting === 'yes' || g.dataset.phase === 'over'); }"
        )
        if page.locator("#game").get_attribute("data-phase") == "over":
            break
        assert my_turn(page)
        step(page)
        decisions += 1
    page.wait_for_selector("#end-screen")
    assert decisions >= 20, decisions
    per = len(asked) / decisions
    with_load = (len(asked) + at_load) / decisions
    print(
        f"\nrequests per decision over a whole game against a bot: {per:.3f} ({len(asked)} requests, "
        f"{decisions} decisions; {with_load:.3f} counting the {at_load} requests that loaded the page): "
        f"{sorted({u.split('?')[0].replace(real_url, '/') for u in asked})}"
    )
    assert per <= 1.5 and with_load <= 1.5, asked[:20]
    ctx.close()
    assert not errors, errors


def test_offline_is_said_within_seconds_and_the_page_catches_up(browser: Browser, real_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-acting='yes']")
    assert page.locator("#conn").inner_text() == WORDS["en"]["live.online"]
    token = _seat_token(page, gid, 0)

    ctx.set_offline(True)
    t0 = time.monotonic()
    page.wait_for_selector("#conn[data-status='offline']", state="attached", timeout=8000)
    print(f"\noffline shown after {time.monotonic() - t0:.2f} s")
    assert page.locator("#conn").inner_text() == WORDS["en"]["live.offline"]
    # A decision made while offline is said to be lost in words (never "Failed to fetch").
    before = ply(page)
    page.locator("#game button[data-action]:visible").first.click()
    page.wait_for_selector("#message.error")
    assert page.locator("#message").inner_text() == WORDS["en"]["live.not_sent"]
    assert ply(page) == before
    # Meanwhile the game goes on: another window of this seat plays, and then the bot.
    _act_as(real_url, gid, 0, token)
    deadline = time.monotonic() + 60
    while _get(f"{real_url}api/games/{gid}")["acting_seat"] == 0 and time.monotonic() < deadline:
        _act_as(real_url, gid, 0, token)
    # wait for the bot's turn to be over (it is this seat's turn again)
    while _get(f"{real_url}api/games/{gid}")["acting_seat"] != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    server_ply = _get(f"{real_url}api/games/{gid}")["ply"]
    assert server_ply > before + 1 and ply(page) == before, "the page was offline: it cannot know yet"

    ctx.set_offline(False)
    t0 = time.monotonic()
    page.wait_for_selector("#conn[data-status='online']", state="attached", timeout=10000)
    page.wait_for_function("p => +document.querySelector('#game').dataset.ply === p", arg=server_ply)
    print(f"online and caught up after {time.monotonic() - t0:.2f} s")
    # The error cleared itself; every move made meanwhile is in the log.
    assert page.locator("#message").count() == 0
    logged = {int(p) for p in page.locator("#log li").evaluate_all("ls => ls.map((l) => l.dataset.ply)")}
    moves = _get(f"{real_url}api/games/{gid}/moves?since={before}")["moves"]
    assert {m["ply"] for m in moves if m["events"]} <= logged
    assert my_turn(page)
    ctx.close()
    assert not errors, errors


def test_a_move_another_window_made_first_is_said_in_words_and_refreshed(page: Page, real_url: str) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-acting='yes']")
    token = _seat_token(page, gid, 0)
    # This page's socket lags (its updates are held back); another window of the seat moves.
    page.evaluate(
        """() => window.__sw.lives.forEach((l) => {
            const real = l.message.bind(l);
            l.message = (m) => { if (m.type !== "update") real(m); };
        })"""
    )
    before = ply(page)
    # (not the decision the page sends: the same decision at the same ply is taken as a resend)
    now = _act_as(real_url, gid, 0, token, -1)
    page.locator("#game button[data-action]:visible").first.click()
    page.wait_for_selector("#message")
    assert page.locator("#message").inner_text() == WORDS["en"]["live.moved_on"]
    assert "error" not in (page.locator("#message").get_attribute("class") or "")
    # Refreshed: the page shows the game as it is now (this ply, or later if the bot moved).
    page.wait_for_function("p => +document.querySelector('#game').dataset.ply >= p", arg=now)
    assert ply(page) > before
    assert _get(f"{real_url}api/games/{gid}")["ply"] >= now


def test_a_silent_socket_is_found_by_the_heartbeat_and_replaced(browser: Browser, real_url: str) -> None:
    """A network that goes away without a word (no offline event, no close): the heartbeat's ping
    gets no answer, the page says the connection is lost, opens a new socket and catches up."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(20000)
    ctx.add_init_script("window.__swHeartbeat = { every: 400, silence: 600 };")
    page = ctx.new_page()
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-acting='yes']")
    token = _seat_token(page, gid, 0)
    # Pongs come back on a healthy socket: it stays online across several heartbeats.
    page.wait_for_timeout(1500)
    assert page.locator("#conn").get_attribute("data-status") == "online"
    # From now on the socket hears nothing (the messages are lost on the way).
    page.evaluate(
        "() => { const ws = window.__sw.lives[0].ws; ws.onmessage = () => {}; window.__silent = ws; }"
    )
    before = ply(page)
    now = _act_as(real_url, gid, 0, token)  # another window of the seat moves meanwhile
    page.wait_for_selector("#conn[data-status='lost']", state="attached", timeout=5000)
    assert page.locator("#conn").inner_text() == WORDS["en"]["connection_lost"]
    page.wait_for_selector("#conn[data-status='online']", state="attached", timeout=10000)
    assert page.evaluate("() => window.__sw.lives[0].ws !== window.__silent"), "a new socket"
    page.wait_for_function("p => +document.querySelector('#game').dataset.ply >= p", arg=now)
    assert ply(page) > before
    ctx.close()


# Marks every region, player row and log line (and the board) before an update, with its HTML.
MARK = """() => {
  window.__before = {};
  const all = [document.querySelector("#board"), ...document.querySelectorAll(
    "#board [data-region], #players li[data-seat], #log li")];
  all.forEach((e, i) => { e.__mark = i; window.__before[i] = e.outerHTML; });
}"""
# After it: of the marked ones whose HTML is the same, which are still the same element.
KEPT = """() => {
  const out = { same: 0, kept: 0, board: document.querySelector("#board").__mark === 0, logKept: 0,
    playersKept: 0, regionsKept: 0 };
  const now = new Map();
  for (const e of document.querySelectorAll("#board [data-region], #players li[data-seat], #log li")) {
    if (e.__mark !== undefined) {
      out.kept += 1;
      if (e.matches("#log li")) out.logKept += 1;
      if (e.matches("#players li")) out.playersKept += 1;
      if (e.matches("[data-region]")) out.regionsKept += 1;
    }
    now.set(e.outerHTML, (now.get(e.outerHTML) || 0) + 1);
  }
  for (const [i, html] of Object.entries(window.__before)) if (i !== "0" && now.has(html)) out.same += 1;
  return out;
}"""


def test_an_update_touches_only_what_changed(page: Page, real_url: str) -> None:
    """The page is patched, not rebuilt: after a decision and the bot's answer, every region, player
    row and log line that reads the same is the very element it was (its focus and state kept)."""
    create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#conn[data-status='online']", state="attached")
    page.wait_for_selector("#game[data-acting='yes']")
    step(page)  # a pick: the log has a line
    page.wait_for_selector("#game[data-acting='yes']")
    page.evaluate(MARK)
    regions = page.locator("#board [data-region]").count()
    lines = page.locator("#log li").count()
    before = ply(page)
    step(page)
    page.wait_for_function("b => +document.querySelector('#game').dataset.ply > b", arg=before)
    kept = page.evaluate(KEPT)
    print(f"\nafter an update: {kept}")
    assert kept["board"], "the board is the same element"
    assert kept["kept"] >= kept["same"], "every element that reads the same was kept"
    assert kept["logKept"] == lines, "the log's lines stay; only the new ones come in"
    assert kept["playersKept"] >= 1 and 1 <= kept["regionsKept"] < regions, kept
    assert page.locator("#log li").count() > lines
