"""The redeployment panel (smallworld/web/static/redeploy.js, issue 28 item 9) builds only plans the
engine takes: "−" stops at what must stay (the payload's `plan.minimum`), "done" waits until
nothing is left in hand, the regions come in their numbers' order, a plan not yet sent survives a
reload, and a refusal is told in the catalogue's words. Rules: §6.12 of
../shared/rules/warcraft-rules.md (Troop redeployment) and §8.14 (Tauren: 2 tokens a region)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from web_driver import create_game, play_until, record_actions

from smallworld.engine.api.game import Game
from smallworld.engine.model.errors import IllegalActionError
from smallworld.engine.model.state import Phase, State
from smallworld.engine.rules.conquest import conquering_race
from smallworld.web import payload


def _redeploying(race: str | None, seeds: range) -> State:
    """A 2-player game played at random to a redeployment with tokens in hand (of `race`)."""
    for seed in seeds:
        st = Game.from_settings({"players": 2, "seed": seed}).new_initial_state()
        rng = random.Random(seed)
        for _ in range(400):
            if st.result is not None:
                break
            if (
                st.phase == Phase.REDEPLOY
                and not st.pending
                and st.seats[st.acting_seat].hand > 0
                and (race is None or conquering_race(st, st.acting_seat) == race)
            ):
                return st
            st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
    raise AssertionError(f"no redeployment of {race} in seeds {seeds}")


def test_the_plan_names_what_must_stay_on_each_tauren_region() -> None:
    """§6.12, §8.14: a Tauren region keeps 2 tokens through the redeployment; the payload says so
    (`plan.minimum`), and a plan that takes it lower is refused and changes nothing."""
    st = _redeploying("tauren", range(200))
    seat = st.acting_seat
    plan = payload.seat_view(st, seat)["plan"]
    assert plan is not None and plan["minimum"]
    for ref, floor in plan["minimum"].items():
        r = st.game.map.index(ref)
        assert floor["tokens"] == st.tokens[r] >= 2, (ref, floor)
    ref, floor = next(iter(plan["minimum"].items()))
    before = st.ply
    with pytest.raises(IllegalActionError) as err:
        st.apply({"kind": "plan", "arg": {ref: {**floor, "tokens": floor["tokens"] - 1}}}, seat=seat)
    assert err.value.reason == "plan_removes"
    assert st.ply == before and payload.seat_view(st, seat)["plan"]["minimum"] == plan["minimum"]


def test_the_plan_minimum_is_one_token_for_other_races() -> None:
    """§6.12: every other Active race keeps 1 token on each of its regions."""
    st = _redeploying(None, range(50))
    race = conquering_race(st, st.acting_seat)
    plan = payload.seat_view(st, st.acting_seat)["plan"]
    assert plan is not None
    keep = st.min_per_region(race)
    assert all(m["tokens"] == keep for m in plan["minimum"].values()), (race, plan["minimum"])


def _panel(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(
        """() => ({
          rows: [...document.querySelectorAll('#redeploy li[data-plan-region]')].map((li) => ({
            ref: li.dataset.planRegion, n: +li.dataset.n,
            count: +li.querySelector('.plan-tokens .plan-count').textContent,
            min: +li.querySelector('.plan-tokens').dataset.min,
            minus: li.querySelector('.plan-tokens .minus').disabled })),
          left: +document.querySelector('#plan-left').dataset.left,
          done: document.querySelector('#plan-done').disabled,
          focus: document.activeElement.id,
        })"""
    )
    return data


@pytest.mark.browser
def test_the_panel_builds_only_legal_plans_and_keeps_them_over_a_reload(
    page: Page, real_url: str, shots: Path
) -> None:
    create_game(page, real_url, "Rhea", ["me", "bot"])
    play_until(page, lambda: page.locator("#redeploy").count() > 0)
    p = _panel(page)
    # Sorted by number, as numbers (1, 2, ..., 10, 11; never 10, 11, 1, 2).
    assert [r["n"] for r in p["rows"]] == sorted(r["n"] for r in p["rows"])
    # "−" stops at what must stay; "done" waits while tokens are left.
    assert all(r["minus"] == (r["count"] <= r["min"]) for r in p["rows"]), p
    assert all(r["min"] >= 1 for r in p["rows"] if r["count"]), p
    assert p["left"] > 0 and p["done"], p
    # "+" keeps the focus on itself (it no longer jumps back to the map).
    first = page.locator("#redeploy li[data-plan-region] .plan-tokens button.plus").first
    first.focus()
    page.keyboard.press("Enter")
    p2 = _panel(page)
    assert p2["left"] == p["left"] - 1 and p2["focus"].startswith("plan-plus-tokens-"), p2
    page.keyboard.press("Enter")
    # The unsent plan survives a reload (sessionStorage, by game, seat and ply).
    page.reload()
    page.wait_for_selector("#redeploy")
    p3 = _panel(page)
    assert p3["left"] == p["left"] - 2 and p3["rows"] == _panel(page)["rows"]
    assert sum(r["count"] for r in p3["rows"]) == sum(r["count"] for r in p["rows"]) + 2
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "redeployment-panel.png"))
    # Down to the floor and no further, on a region its tokens hold (one held by a troop piece
    # alone, a Champion or a Beast, may be left without tokens: its floor is 0, and such a row
    # comes first in some deals, as it did once in CI).
    at = next(i for i, r in enumerate(_panel(page)["rows"]) if r["min"] >= 1)
    row = page.locator("#redeploy li[data-plan-region]").nth(at)
    minus = row.locator(".plan-tokens button.minus")
    while not minus.is_disabled():
        minus.click()
    r0 = _panel(page)["rows"][at]
    assert r0["count"] == r0["min"] >= 1
    # A refusal in the catalogue's words (a plan sent around the panel: below the floor).
    bad = {"kind": "plan", "arg": {r0["ref"]: {"tokens": r0["min"] - 1}}}
    page.evaluate("(a) => window.__sw.send(a)", bad)
    page.wait_for_selector("#message.error")
    said = page.locator("#message").inner_text()
    assert "a plan can only add to them" in said and r0["ref"] not in said, said
    # Everything placed: "done" opens and sends the whole plan.
    page.locator("#redeploy button.all, #redeploy button.plus:not([disabled])").first.click()
    while _panel(page)["left"] > 0:
        page.locator("#redeploy button.plus:not([disabled])").first.click()
    assert not _panel(page)["done"]
    recorded = record_actions(page)  # over the socket, or HTTP where it is down (connection.js)
    page.click("#plan-done")
    page.wait_for_function(
        "() => !document.querySelector('#redeploy') || !document.querySelector('#message')"
    )
    sent = recorded()
    assert sent and sent[-1]["action"]["kind"] == "plan" and not page.locator("#message.error").count()
    assert page.evaluate("() => Object.keys(sessionStorage).filter((k) => k.startsWith('sw.plan.'))") == []
