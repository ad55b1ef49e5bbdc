"""The other players' moves played back on the board (issue 28, item 1; docs/web.md "Playback"), in
Chromium against the real server: after this seat's first turn, the bot's turn is shown step by
step (a step counter, the regions of each move pulsing, a conquest's stack as the move left it),
then a summary per player that stays until dismissed; with `prefers-reduced-motion` only the
summary."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from web_driver import create_game, my_turn, step

# Every step the page shows, as it shows it: the counter, the pulsing regions and their stacks
# (an init script: it watches from the page's start, the bot may play first).
WATCH = """{
  window.__pb = { steps: [], playing: false, pulses: false };
  const look = () => {
    const bar = document.querySelector("#playback.playing");
    if (bar) window.__pb.playing = true;
    const pulsing = [...document.querySelectorAll("#board .region.pulse")];
    if (pulsing.length) window.__pb.pulses = true;
    if (!bar) return;
    const n = +bar.dataset.step;
    const seen = { regions: pulsing.map((g) => g.dataset.region),
      stacks: Object.fromEntries(pulsing.map((g) => {
        const s = document.querySelector(`[data-marks-of="${g.dataset.region}"] .stack`);
        return [g.dataset.region, s ? +s.dataset.tokens : null];
      })),
      // (this seat's own redeployment, being edited meanwhile, shows its plan on its regions)
      redeploy: !!document.querySelector("#redeploy") };
    const last = window.__pb.steps[window.__pb.steps.length - 1];
    // A step as it stands when the page settles (the last look while it is shown).
    if (last && last.n === n && last.ply === +bar.dataset.ply) {
      if (pulsing.length) Object.assign(last, seen);
      return;
    }
    window.__pb.steps.push({ n, of: +bar.dataset.steps, ply: +bar.dataset.ply, seat: +bar.dataset.seat,
      at: performance.now(), ...seen });
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
}"""


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _first_turn(page: Page) -> None:
    """This seat plays its first turn through the page, until the bot is to act."""
    page.wait_for_selector("#game[data-acting='yes']")
    for _ in range(60):
        if not my_turn(page):
            return
        step(page)
    raise AssertionError("the first turn did not end")


def test_the_bots_turn_is_played_back_step_by_step(page: Page, real_url: str, shots: Path) -> None:
    page.add_init_script(WATCH)
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    _first_turn(page)
    page.wait_for_selector("#playback.playing")
    page.wait_for_function(
        "() => window.__pb.steps.length >= 3 || !!document.querySelector('#playback.summary')"
    )
    page.screenshot(path=str(shots / "playback.png"))
    # What the playback says is above the board: it covers no region's name.
    covered = page.evaluate(
        """() => {
            const bar = document.querySelector("#playback").getBoundingClientRect();
            return [...document.querySelectorAll("#board .rname")].filter((t) => {
                const r = t.getBoundingClientRect();
                return r.left < bar.right && bar.left < r.right && r.top < bar.bottom && bar.top < r.bottom;
            }).map((t) => t.textContent);
        }"""
    )
    assert covered == []
    page.wait_for_selector("#game[data-acting='yes'] #playback.summary", timeout=60000)
    steps = page.evaluate("() => window.__pb.steps")
    # The moves the bot made, as the server tells them, and those the page played back.
    moves = [m for m in _get(f"{real_url}api/games/{gid}/moves?since=0")["moves"] if m["seat"] == 1]
    played = {s["ply"] for s in steps}
    shown = [m for m in moves if m["ply"] in played]
    assert len(steps) >= 2, steps
    # A run per bot turn (the bot may have begun the game), however its moves came: the counter
    # goes 1, 2, 3... to its end while the bot plays.
    runs: list[list[dict[str, Any]]] = []
    for s in steps:
        if s["n"] == 1:
            runs.append([])
        assert runs, steps
        runs[-1].append(s)
    for run in runs:
        assert [s["n"] for s in run] == list(range(1, len(run) + 1)), "every step, one after another"
        assert run[-1]["n"] == run[-1]["of"], "the counter reached its end"
    assert all(s["seat"] == 1 for s in steps)
    assert played <= {m["ply"] for m in moves}
    # Every move of the bot's with events in its last run was played back.
    lo, hi = runs[-1][0]["ply"], runs[-1][-1]["ply"]
    assert {m["ply"] for m in moves if lo <= m["ply"] <= hi and m["events"]} <= played
    assert any(s["regions"] for s in steps), "a region pulsed"
    # A conquest's stack shows the tokens the move put there, while its step is shown.
    by_ply = {m["ply"]: m for m in moves}
    conquered = 0
    for s in steps:
        for e in by_ply[s["ply"]]["events"]:
            if e["type"] != "conquest":
                continue
            conquered += 1
            if not s["redeploy"]:
                assert s["stacks"].get(e["region"]) == e["tokens"], (s, e)
    assert conquered, "no conquest was played back"
    # Steps are spaced out in time (not all drawn at once).
    last = runs[-1]
    assert last[-1]["at"] - last[0]["at"] >= 150 * (len(last) - 1)
    # The summary: the bot's regions, the tokens it destroyed and its coins, in words.
    conquests = [e for m in shown for e in m["events"] if e["type"] == "conquest" and e["seat"] == 1]
    coins = sum(e["total"] for m in shown for e in m["events"] if e["type"] == "score" and e["seat"] == 1)
    row = page.locator("#playback li[data-seat='1']")
    assert int(row.get_attribute("data-regions") or -1) == len(conquests)
    assert int(row.get_attribute("data-lost") or -1) == sum(e["lost"] for e in conquests)
    assert int(row.get_attribute("data-coins") or -1) == coins
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "playback-summary.png"))
    text = row.inner_text()
    assert f"conquered {len(conquests)} region" in text and f"scored {coins} coin" in text, text
    assert "⟦" not in text and ("greedy" in text.lower() or "bot" in text.lower()), text
    # It stays, through this seat's next decision, until it is dismissed.
    assert my_turn(page)
    step(page)
    assert page.locator("#playback.summary").is_visible()
    page.click("#playback-dismiss")
    page.wait_for_selector("#playback", state="hidden")


def test_reduced_motion_shows_only_the_summary(browser: Browser, real_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    page.add_init_script(WATCH)
    create_game(page, real_url, "Ada", ["me", "bot"])
    _first_turn(page)
    page.wait_for_selector("#playback.summary")
    watched = page.evaluate("() => window.__pb")
    assert watched["playing"] is False and watched["pulses"] is False and watched["steps"] == []
    assert page.locator("#playback li[data-seat='1']").count() == 1
    ctx.close()


def test_a_die_roll_is_told_with_its_face_and_whether_it_succeeded(page: Page, real_url: str) -> None:
    """A step with a die roll (another player's final conquest attempt): its face and its outcome,
    in words, above the board; here played back from a prepared move through the page's module."""
    create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#game[data-ply]")
    told = page.evaluate(
        """async () => {
            const { Playback } = await import("/static/playback.js");
            const out = [];
            for (const success of [false, true]) {
                const pb = new Playback({ render() {}, rich: (t) => [t] });
                const die = { type: "die", seat: 1, region: "L1:1", roll: 2, cost: 3, tokens: 1, success };
                pb.enqueue([{ ply: 9, seat: 1, action: { kind: "final", region: "L1:1" }, events: [die],
                    texts: { en: ["rolls the die"] } }], { regions: {} });
                const bar = pb.bar();
                pb.close();
                const d = bar.querySelector(".pb-die");
                out.push({ roll: d && d.dataset.roll, cls: d && d.className, text: d && d.textContent,
                    step: bar.dataset.step });
            }
            return out;
        }"""
    )
    failed, won = told
    assert failed["roll"] == won["roll"] == "2" and failed["step"] == "1"
    assert failed["text"].endswith("Die roll: 2 — the attempt failed") and "lost" in failed["cls"]
    assert won["text"].endswith("Die roll: 2 — the attempt succeeded") and "won" in won["cls"]
