"""The other players' moves played back on the board (issue 28, item 1; docs/web.md "Playback"), in
Chromium against the real server: after this seat's first turn, the bot's turn is shown step by
step (a step counter, the regions of each move pulsing, a conquest's stack as the move left it),
then a summary per player that stays until dismissed; with `prefers-reduced-motion` only the
summary."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_driver import create_game, describe, my_turn, phase, step
from web_positions import L2A, api, open_in_page, open_position, orcs_against

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.model.state import Phase

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
      deltas: Object.fromEntries(pulsing.flatMap((g) => {
        const d = document.querySelector(`[data-marks-of="${g.dataset.region}"] .pb-delta`);
        return d ? [[g.dataset.region, { delta: +d.dataset.delta, text: d.textContent }]] : [];
      })),
      // (this seat's own redeployment, being edited meanwhile, shows its plan on its regions)
      redeploy: !!document.querySelector("#redeploy"),
      lines: [...bar.querySelectorAll(".pb-lines li")].map((li) => li.textContent) };
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


def _bot_moves(url: str, gid: str, since: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = _get(f"{url}api/games/{gid}/moves?since=0")["moves"]
    return [m for m in moves if m["seat"] == 1 and m["ply"] >= since]


def _first_turn(page: Page, url: str, gid: str) -> None:
    """This seat plays its first turn through the page, until the bot has moved after it. (The
    server is asked: the greedy bot's whole turn may be over before the page is looked at.)"""
    page.wait_for_selector("#game[data-acting='yes']")
    start = int(page.locator("#game").get_attribute("data-ply") or 0)
    for _ in range(60):
        if not my_turn(page) or _bot_moves(url, gid, start):
            return
        step(page)
    raise AssertionError("the first turn did not end")


TURN_SEAT = "() => window.__sw.shown().st.view.turn_seat"
# The steps of a turn after which it is still this seat's (its turn's last is a redeployment, and a
# decision in the bot's turn, withdrawn tokens to place (§6.9), hands the turn back to the bot).
OPENING = ("pick", "start", "rise", "conquer")


def _summary_on_own_turn(page: Page) -> None:
    """Waits for the summary at a decision of this seat's own turn after which the turn is still its
    own. The summary also comes at other decisions of this seat's (in the bot's turn, or the last of
    its own turn), but after those the bot plays on, with a new playback: such a decision is made
    and the wait goes on."""
    for _ in range(20):
        page.wait_for_selector("#game[data-acting='yes'] #playback.summary", timeout=60000)
        if page.evaluate(TURN_SEAT) == 0 and phase(page) in OPENING:
            return
        step(page)
    raise AssertionError("this seat's own turn did not come")


def test_the_bots_turn_is_played_back_step_by_step(page: Page, real_url: str, shots: Path) -> None:
    page.add_init_script(WATCH)
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    _first_turn(page, real_url, gid)
    page.wait_for_selector("#playback.playing", timeout=60000)  # the bot may wait behind other games
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
    try:
        _summary_on_own_turn(page)
    except PlaywrightTimeout:
        # (it failed now and then in whole runs, never alone: what the page and the game were at)
        bar = page.evaluate(
            "() => { const b = document.querySelector('#playback'); const s = window.__pb.steps;"
            " return {bar: b ? {...b.dataset, class: b.className} : null, steps: s.length,"
            " last: s.slice(-2).map((x) => ({n: x.n, of: x.of, ply: x.ply, seat: x.seat}))}; }"
        )
        game = _get(f"{real_url}api/games/{gid}")
        moves = _get(f"{real_url}api/games/{gid}/moves?since=0")["moves"]
        tail = [(m["ply"], m["seat"], m["action"].get("kind")) for m in moves[-6:]]
        raise AssertionError(
            f"no summary on this seat's turn: {describe(page)}; playback {bar}; game {game.get('status')},"
            f" seats {game.get('seats')}; last moves {tail}"
        ) from None
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
    before = describe(page)
    did = step(page)
    tail = [(m["ply"], m["seat"], m["action"].get("kind")) for m in _bot_moves(real_url, gid, 0)[-3:]]
    assert page.locator("#playback.summary").is_visible(), (before, did, describe(page), tail)
    page.click("#playback-dismiss")
    page.wait_for_selector("#playback", state="hidden")


def test_reduced_motion_shows_only_the_summary(browser: Browser, real_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    page.add_init_script(WATCH)
    gid = create_game(page, real_url, "Ada", ["me", "bot"])
    _first_turn(page, real_url, gid)
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


def _redeploying_position() -> dict[str, Any]:
    """A 2-player position where seat 1 redeploys (§6.12) with tokens in hand and several regions,
    found by playing random legal moves from a fixed seed; its boards pinned."""
    game = Game.from_settings({"players": 2, "seed": 1})
    st = game.new_initial_state()
    rng = random.Random(1)
    while not (st.phase == Phase.REDEPLOY and not st.pending and st.acting_seat == 1 and st.round >= 2):
        assert st.result is None
        st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
    settings = {**game.settings.to_json(), "boards": [s.id for s in game.map.sides]}
    return {"format": "smallworld-position/1", "settings": settings, "position": state_to_json(st)}


def test_a_redeployment_is_played_back_with_the_counts_changing(
    page: Page, real_url: str, shots: Path
) -> None:
    """Another player's redeployment (§6.12: a token deployed, then a plan placing the rest) is
    played back like a conquest: the region pulses, its stack shows the new count and "+N" under it."""
    page.add_init_script(WATCH)
    both = [{"kind": "creator"}, {"kind": "creator"}]
    created = api(
        real_url, "POST", "/api/games", {"name": "Rhea", "seats": both, "position": _redeploying_position()}
    )
    gid = created["game"]
    token = created["seats"][1]["token"]
    # The page holds seat 0 only; seat 1 is another person's (this test's calls).
    mine = {**created, "seats": [s for s in created["seats"] if s["seat"] == 0]}
    open_in_page(page, real_url, gid, mine)
    page.wait_for_selector("#game[data-viewer='0'][data-acting='no']")
    page.wait_for_function("() => window.__sw.shown().st.view.ply >= 0")
    answer = api(real_url, "GET", f"/api/games/{gid}/view?client=web", token=token)
    plan = answer["plan"]
    current = {ref: p["tokens"] for ref, p in plan["current"].items()}
    hand = answer["view"]["seats"][1]["hand"]
    assert hand >= 2 and len(current) >= 2, (hand, current)
    first, second = sorted(current)[:2]
    # One token into the first region, then a plan with the rest in the second.
    one = {"kind": "deploy", "region": first}
    api(
        real_url,
        "POST",
        f"/api/games/{gid}/act",
        {"seat": 1, "ply": answer["view"]["ply"], "action": one},
        token,
    )
    page.wait_for_function("r => window.__pb.steps.some((s) => s.deltas[r])", arg=first)
    # The mouse comes to rest on the second region while the step is shown: its tooltip stays
    # through the playback's next redraws (item 4), the board element under it unchanged or not.
    box = page.locator(f"#board [data-marks-of='{second}'] .stack").bounding_box()
    assert box
    at = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    page.mouse.move(*at)
    page.wait_for_selector(f"#tooltip[data-region='{second}']:not([hidden])")
    assert page.locator("#board .region.pulse").count() == 1, "still the first step"
    # The step's time is over (its pulse goes) while the same player is still to act.
    page.wait_for_selector("#board .region.pulse", state="detached")
    assert page.locator(f"#tooltip[data-region='{second}']:not([hidden])").count() == 1
    final = {
        ref: {"tokens": n + (1 if ref == first else 0) + (hand - 1 if ref == second else 0)}
        for ref, n in current.items()
    }
    api(
        real_url,
        "POST",
        f"/api/games/{gid}/act",
        {"seat": 1, "ply": answer["view"]["ply"] + 1, "action": {"kind": "plan", "arg": final}},
        token,
    )
    page.wait_for_function("r => window.__pb.steps.some((s) => s.deltas[r])", arg=second)
    # (the step's words above the board may have moved the board: the region now under the mouse)
    tip = page.evaluate(
        """([x, y]) => {
            const t = document.querySelector("#tooltip");
            const under = document.elementFromPoint(x, y).closest("[data-region]").dataset.region;
            const stack = document.querySelector(`[data-marks-of="${under}"] .stack`);
            return { hidden: t.hidden, region: t.dataset.region, under, text: t.innerText,
                     tokens: stack ? +stack.dataset.tokens : null,
                     step: document.querySelector("#playback").dataset.step };
        }""",
        at,
    )
    assert not tip["hidden"] and tip["region"] == tip["under"] and tip["step"] == "2", tip
    assert (f"×{tip['tokens']}" if tip["tokens"] else "nobody") in tip["text"], tip
    page.screenshot(path=str(shots / "playback-redeploy.png"))
    steps = page.evaluate("() => window.__pb.steps")
    deployed = next(s for s in steps if first in s["deltas"])
    assert deployed["stacks"][first] == current[first] + 1, deployed
    assert deployed["deltas"][first] == {"delta": 1, "text": "+1"}, deployed
    planned = next(s for s in steps if second in s["deltas"])
    assert planned["stacks"][second] == current[second] + hand - 1, planned
    assert planned["deltas"][second] == {"delta": hand - 1, "text": f"+{hand - 1}"}, planned
    # Each step is told by its action in words (a deployment sets off no event; the plan's, its
    # forts and the turn's score, come after).
    label = page.locator(f"#board .region[data-region='{first}']").get_attribute("aria-label") or ""
    assert any(t.endswith(f" places a token in {label.split(',')[0]}") for t in deployed["lines"]), deployed
    assert planned["lines"][0].endswith(" redeploys") and len(planned["lines"]) > 1, planned["lines"]
    # The plan's other regions keep their counts: no change is shown under them.
    assert set(planned["deltas"]) == {second}, planned
    assert planned["stacks"][first] == current[first] + 1, planned
    # Once played back, the board shows the game as it is.
    page.wait_for_selector("#playback:not(.playing)", state="attached")
    stacks = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#board .stack')].map("
        "(s) => [s.closest('[data-marks-of]').dataset.marksOf, +s.dataset.tokens]))"
    )
    assert stacks[first] == final[first]["tokens"] and stacks[second] == final[second]["tokens"], stacks



# Each redraw while a region is selected: the playback's step, the board's stack on that region and
# what the region's panel says holds it.
PANEL_WATCH = """(ref) => {
  window.__panel = [];
  const look = () => {
    const bar = document.querySelector("#playback");
    const panel = document.querySelector(`#region-info[data-region="${ref}"]`);
    const stack = document.querySelector(`[data-marks-of="${ref}"] .stack`);
    if (!panel) return;
    window.__panel.push({ playing: !!(bar && bar.classList.contains("playing")),
      step: bar ? bar.dataset.step : null, tokens: stack ? +stack.dataset.tokens : null,
      text: panel.innerText });
  };
  new MutationObserver(look).observe(document,
    { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def test_a_selected_regions_panel_shows_it_as_the_board_does_during_a_playback(
    page: Page, real_url: str
) -> None:
    """The panel of a selected region says who holds it with the count the board shows at the
    playback's step (the tooltip's facts, the same), not the count the game has reached since: a
    redeployment (§6.12) sent as two moves at once, and the panel read at each redraw."""
    both = [{"kind": "creator"}, {"kind": "creator"}]
    created = api(
        real_url, "POST", "/api/games", {"name": "Rhea", "seats": both, "position": _redeploying_position()}
    )
    gid = created["game"]
    token = created["seats"][1]["token"]
    open_in_page(page, real_url, gid, {**created, "seats": [s for s in created["seats"] if s["seat"] == 0]})
    page.wait_for_selector("#game[data-viewer='0'][data-acting='no']")
    answer = api(real_url, "GET", f"/api/games/{gid}/view?client=web", token=token)
    current = {ref: p["tokens"] for ref, p in answer["plan"]["current"].items()}
    hand = answer["view"]["seats"][1]["hand"]
    first, second = sorted(current)[:2]
    box = page.locator(f"#board [data-marks-of='{second}'] .stack").bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector(f"#region-info[data-region='{second}']")
    page.evaluate(PANEL_WATCH, second)
    ply = answer["view"]["ply"]
    final = {
        ref: {"tokens": n + (1 if ref == first else 0) + (hand - 1 if ref == second else 0)}
        for ref, n in current.items()
    }
    for i, action in enumerate([{"kind": "deploy", "region": first}, {"kind": "plan", "arg": final}]):
        api(real_url, "POST", f"/api/games/{gid}/act", {"seat": 1, "ply": ply + i, "action": action}, token)
    page.wait_for_function("() => window.__panel.some((s) => s.playing && s.step === '2')")
    page.wait_for_selector("#playback:not(.playing)", state="attached")
    seen = page.evaluate("() => window.__panel")
    # The first step (a token into the other region) shows this one as it was, the plan's its new count.
    early = [s for s in seen if s["playing"] and s["step"] == "1"]
    assert early and all(s["tokens"] == current[second] for s in early), early
    wrong = [s for s in seen if not re.search(f"×{s['tokens']}(?![0-9])", s["text"])]
    assert not wrong, wrong
    assert seen[-1]["tokens"] == final[second]["tokens"], seen[-1]


# The page's playback draws a step's badge on the board as it is shown, and the test measures it
# against the stack and the chips of the region (the step set by hand: no move needed).
BADGE_BOXES = """([ref, badge]) => {
  const pb = window.__sw.playback;
  const svg = document.querySelector("#board");
  pb.step = { regions: [ref], badges: { [ref]: badge } };
  pb.decorate(svg);
  pb.step = null;
  const marks = svg.querySelector(`[data-marks-of="${ref}"]`);
  const t = marks.querySelector(".pb-badge").getBoundingClientRect();
  const over = (r) => r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
  const boxes = [...marks.querySelectorAll(".stack rect, .piece rect, .marker rect")]
    .map((b) => b.getBoundingClientRect());
  const text = marks.querySelector(".pb-badge").textContent;
  return { boxes: boxes.length, covered: boxes.filter(over).length, text };
}"""


def test_a_steps_numbers_sit_clear_of_the_regions_stack_and_chips(page: Page, real_url: str) -> None:
    """A step's numbers under a stack ("+1", "⚔3 −1") go below the region's chips, its markers (§10)
    and pieces: drawn on the first chip, the number and the chip hid each other (seen on an end
    screen's last step)."""
    markers = {
        "L2a:12": [{"id": "karazhan", "face_up": True}],
        "L2a:3": [{"id": "frostmourne", "face_up": True}, {"id": "doomhammer", "face_up": False}],
    }
    open_position(page, real_url, L2A, orcs_against("humans", 2, markers=markers))
    for ref, badge, chips in [("L2a:12", {"delta": 1}, 1), ("L2a:3", {"tokens": 3, "lost": 1}, 2)]:
        seen = page.evaluate(BADGE_BOXES, [ref, badge])
        assert seen["boxes"] == 1 + chips and seen["covered"] == 0, (ref, seen)
    assert seen["text"] == "⚔3 −1", seen

# The page's Playback module run step by step on prepared moves, outside any game: each step's
# regions, pulses and change badges (its timer stopped: the test moves it on).
PLAY_PREPARED = """async ([before, final, moves]) => {
    const { Playback } = await import("/static/playback.js");
    const pb = new Playback({ render() {}, rich: (t) => [t], actingSeat: () => 0,
                              shown: () => ({ st: { view: final } }) });
    pb.enqueue(moves, before);
    const out = [];
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    const refs = new Set([...Object.keys(before.regions), ...Object.keys(final.regions)]);
    for (const ref of refs) {
        const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
        g.dataset.region = ref;
        const m = document.createElementNS("http://www.w3.org/2000/svg", "g");
        m.dataset.marksOf = ref;
        svg.append(g, m);
    }
    while (pb.step && !pb.waiting) {
        svg.querySelectorAll(".pb-badge").forEach((b) => b.remove());
        pb.decorate(svg);
        out.push({ ply: pb.step.move.ply, regions: JSON.parse(JSON.stringify(pb.regions)),
            markers: JSON.parse(JSON.stringify(pb.view(final).markers || {})),
            pulse: [...svg.querySelectorAll(".pulse")].map((g) => g.dataset.region).sort(),
            badges: Object.fromEntries([...svg.querySelectorAll(".pb-delta")].map(
                (b) => [b.closest("[data-marks-of]").dataset.marksOf, b.textContent])) });
        svg.querySelectorAll(".pulse").forEach((g) => g.classList.remove("pulse"));
        clearTimeout(pb.timer);
        pb.next();
    }
    pb.close();
    return out;
}"""


def _play_prepared(page: Page, url: str, before: Any, final: Any, moves: list[Any]) -> list[dict[str, Any]]:
    page.goto(url)
    page.wait_for_selector("#lobby")
    seen: list[dict[str, Any]] = page.evaluate(PLAY_PREPARED, [before, final, moves])
    return seen


def test_an_abandon_a_swap_and_a_deployment_change_the_counts_step_by_step(page: Page, real_url: str) -> None:
    """Moves that are not conquests, played back through the page's module from prepared moves:
    an abandoned region (§6.2) empties with "−3"; a Portal Mage swap (§9.17) moves the stack from
    one region to the other ("−1", "+1"); a token deployed (§6.12) adds "+1"; each step's board is
    the regions as that move left them, and the last is the view the moves lead to."""
    before = {
        "regions": {
            "L1:1": {"race": "orcs", "tokens": 3},
            "L1:2": {"race": "orcs", "tokens": 1},
            "L1:3": {"race": "humans", "tokens": 2},
        }
    }
    final = {
        "regions": {"L1:3": {"race": "humans", "tokens": 2}, "L1:4": {"race": "orcs", "tokens": 2}},
        "seats": [{}, {"active": "orcs"}],
    }
    moves = [
        {
            "ply": 5,
            "seat": 1,
            "action": {"kind": "abandon", "region": "L1:1"},
            "events": [{"type": "abandon", "seat": 1, "region": "L1:1"}],
            "texts": {},
        },
        {
            "ply": 6,
            "seat": 1,
            "action": {"kind": "portal", "region": "L1:2", "arg": "L1:4"},
            "events": [{"type": "portal", "seat": 1, "regions": ["L1:2", "L1:4"]}],
            "texts": {},
        },
        {"ply": 7, "seat": 1, "action": {"kind": "deploy", "region": "L1:4"}, "events": [], "texts": {}},
    ]
    seen = _play_prepared(page, real_url, before, final, moves)
    abandon, swap, deploy = seen
    assert abandon["ply"] == 5 and "L1:1" not in abandon["regions"] and abandon["badges"] == {"L1:1": "−3"}
    assert swap["regions"].get("L1:2") is None and swap["regions"]["L1:4"] == {"race": "orcs", "tokens": 1}
    assert swap["badges"] == {"L1:2": "−1", "L1:4": "+1"} and swap["pulse"] == ["L1:2", "L1:4"]
    assert deploy["regions"]["L1:4"]["tokens"] == 2 and deploy["badges"] == {"L1:4": "+1"}
    assert deploy["regions"]["L1:3"] == {"race": "humans", "tokens": 2}, "a region no move touched"


def test_a_token_deployed_after_the_tokens_were_lifted_shows_plus_one(page: Page, real_url: str) -> None:
    """§6.12: a redeployment begins with every token above a region's minimum lifted into hand, a
    step no move shows (it follows the move that ends the conquests). The token then deployed there
    is shown as "+1" under the count the region now has (2: 4 lifted down to 1, then one placed),
    not as the "−2" the two counts alone would tell."""
    before = {"regions": {"L1:1": {"race": "orcs", "tokens": 4}, "L1:2": {"race": "orcs", "tokens": 1}}}
    final = {
        "regions": {
            "L1:1": {"race": "orcs", "tokens": 2},
            "L1:2": {"race": "orcs", "tokens": 1},
            "L1:3": {"race": "orcs", "tokens": 1},
        },
        "seats": [{}, {"active": "orcs"}],
    }
    moves = [
        {
            "ply": 8,
            "seat": 1,
            "action": {"kind": "conquer", "region": "L1:3"},
            "events": [{"type": "conquest", "seat": 1, "region": "L1:3", "race": "orcs", "tokens": 2}],
            "texts": {},
        },
        {"ply": 9, "seat": 1, "action": {"kind": "end"}, "events": [], "texts": {}},
        {"ply": 10, "seat": 1, "action": {"kind": "deploy", "region": "L1:1"}, "events": [], "texts": {}},
    ]
    seen = _play_prepared(page, real_url, before, final, moves)
    assert [s["ply"] for s in seen] == [8, 10], "the end of the conquests changes nothing shown"
    deploy = seen[-1]
    assert deploy["pulse"] == ["L1:1"] and deploy["badges"] == {"L1:1": "+1"}, deploy
    assert deploy["regions"]["L1:1"] == {"race": "orcs", "tokens": 2}, deploy


def test_a_place_is_turned_up_on_the_board_at_the_step_that_conquers_it(page: Page, real_url: str) -> None:
    """§10: a face-down marker is turned up when its region is conquered. Played back, each place
    stays face down until the step of its conquest (the latest view has both face up already)."""
    down = [{"face_up": False}]
    before = {
        "regions": {"L1:1": {"race": "orcs", "tokens": 3}},
        "markers": {"L1:2": down, "L1:3": down},
    }
    final = {
        "regions": {
            "L1:1": {"race": "orcs", "tokens": 1},
            "L1:2": {"race": "orcs", "tokens": 1},
            "L1:3": {"race": "orcs", "tokens": 1},
        },
        "markers": {"L1:2": [{"id": "crypt", "face_up": True}], "L1:3": [{"id": "forge", "face_up": True}]},
        "seats": [{}, {"active": "orcs"}],
    }
    moves = [
        {
            "ply": 5 + i,
            "seat": 1,
            "action": {"kind": "conquer", "region": ref},
            "events": [{"type": "conquest", "seat": 1, "region": ref, "race": "orcs", "tokens": 1}],
            "texts": {},
        }
        for i, ref in enumerate(["L1:2", "L1:3"])
    ]
    first, second = _play_prepared(page, real_url, before, final, moves)
    assert first["markers"] == {"L1:2": final["markers"]["L1:2"], "L1:3": down}, first
    assert second["markers"] == final["markers"], second
